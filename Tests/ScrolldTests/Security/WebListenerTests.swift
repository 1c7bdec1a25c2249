import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The WebSocket listener's access rules (docs/design.md §24), each against a real daemon on a
/// real loopback port: only the daemon's own uid gets in (looked up in the kernel's socket
/// table), and a browser only from a page whose origin is listed.
@Suite("scrolld's WebSocket listener: who gets in", .serialized)
struct WebListenerTests {
    static func config(port: Int, origins: [String] = ["http://127.0.0.1:8080"]) -> String {
        "[web]\nlisten = \"127.0.0.1:\(port)\"\norigins = [\(origins.map { "\"\($0)\"" }.joined(separator: ", "))]\n"
    }

    static func features(_ welcome: [String: Any]?) -> [String] { welcome?["features"] as? [String] ?? [] }

    @Test func theListenerIsOffByDefaultAndWelcomeListsWebEitherWay() throws {
        let off = try DaemonProcess()
        let unix = try LineClient(path: off.socketPath)
        // The daemon implements it, on or off, as it implements `touch` without a touchscreen.
        #expect(Self.features(unix.readJSON()).contains("web"))
        #expect(!off.stderr.contains("WebSocket"))
        #expect(off.stop() == 0)

        let port = try WebSocketClient.freePort()
        let on = try DaemonProcess(config: Self.config(port: port))
        let (web, upgraded) = try WebSocketClient.open(port: port)
        #expect(upgraded, "\(web.response)")
        #expect(Self.features(web.readJSON()).contains("web"))
        let other = try LineClient(path: on.socketPath)
        #expect(Self.features(other.readJSON()).contains("web"))
        #expect(on.stderr.contains("listening for WebSocket clients on ws://127.0.0.1:\(port)/scrolld"))
        #expect(on.stop() == 0)
    }

    /// A non-loopback address never reaches a socket: the daemon does not start, and says why.
    @Test func aNonLoopbackAddressIsRefusedAtStartWithTheReason() throws {
        for (address, reason) in [
            ("0.0.0.0:8765", "0.0.0.0 is not a loopback address"),
            ("192.168.1.10:8765", "192.168.1.10 is not a loopback address"),
            ("[::]:8765", ":: is not a loopback address"),
            ("localhost:8765", "localhost is not an IP address"),
        ] {
            let file = try Scrolld.temporaryFile("[web]\nlisten = \"\(address)\"\n", name: "scrolld.toml")
            let run = try Scrolld.run(["run", "--config", file, "--socket", "/tmp/sd-never-\(getpid()).sock"])
            #expect(run.status != 0, "\(address)")
            #expect(run.stderr.contains("web.listen: \(reason)"), "\(address): \(run.stderr)")
            let check = try Scrolld.run(["check-config", file])
            #expect(check.status != 0 && (check.stderr + String(decoding: check.stdout, as: UTF8.self)).contains(reason), "\(address)")
        }
    }

    /// A port another scrolld listens on: the second does not start, and says why in words
    /// and what to do (NIO's description named its internal function).
    @Test func aPortInUseIsSaidInWords() throws {
        let port = try WebSocketClient.freePort()
        let first = try DaemonProcess(config: Self.config(port: port))
        let file = try Scrolld.temporaryFile("[web]\nlisten = \"127.0.0.1:\(port)\"\n", name: "scrolld.toml")
        let second = try Scrolld.run(["run", "--config", file, "--socket", "/tmp/sd-second-\(getpid()).sock"])
        #expect(second.status == 1)
        #expect(second.stderr.contains("web.listen: cannot listen on 127.0.0.1:\(port): Address already in use: another scrolld, or another program, listens there; stop it, or choose another port\n"), "\(second.stderr)")
        #expect(!second.stderr.contains("descriptor:"), "\(second.stderr)")
        #expect(first.stop() == 0)
    }

    /// A client without `Origin` (not a browser) of the daemon's own uid is served as on the
    /// Unix socket, by the same handler: what it configures, a Unix client sees, and its
    /// subscription follows what a Unix client does.
    @Test func theSameUidWithoutAnOriginIsServedLikeTheUnixSocket() throws {
        let port = try WebSocketClient.freePort()
        let daemon = try DaemonProcess(config: Self.config(port: port))
        let (web, upgraded) = try WebSocketClient.open(port: port)
        try #require(upgraded, "\(web.response)")
        #expect(web.readJSON()?["type"] as? String == "welcome")
        #expect(web.request(["op": "ping"], id: 1)?["type"] as? String == "pong")
        let configured = web.request(["op": "configure", "container": "w", "containerSize": [400, 300], "contentSize": [400, 3000]], id: 2)
        #expect(configured?["type"] as? String == "ok")
        let state = web.request(["op": "subscribe", "container": "w"], id: 3)
        #expect(state?["type"] as? String == "state" && state?.y == 0)

        let unix = try LineClient(path: daemon.socketPath)
        _ = unix.readJSON()
        #expect(unix.request(["op": "scrollTo", "container": "w", "y": 250], id: 1)?["type"] as? String == "ok")
        var seen: [String: Any]?
        while seen == nil, let message = web.readJSON() {
            if message["type"] as? String == "state", message.y == 250 { seen = message }
        }
        #expect(seen?["container"] as? String == "w")
        // A bad request answers with the Unix socket's error and keeps the connection.
        let bad = web.request(["op": "scrollTo", "container": "nope", "y": 1], id: 4)
        #expect(bad?["code"] as? String == "unknown_container")
        #expect(web.request(["op": "ping"], id: 5)?["type"] as? String == "pong")
        #expect(daemon.stop() == 0)
    }

    /// A process of another uid (started as `nobody`) gets the forbidden error, then close code
    /// 1008, and the daemon logs it; it keeps serving its own uid meanwhile.
    @Test(.enabled(if: getuid() == 0, "starting a client as another uid needs root (setpriv)"))
    func anotherUidIsClosedWith1008AndLogged() throws {
        let port = try WebSocketClient.freePort()
        let daemon = try DaemonProcess(config: Self.config(port: port))
        let script = """
            import socket, sys
            s = socket.create_connection(("127.0.0.1", \(port)))
            s.sendall(b"GET /scrolld HTTP/1.1\\r\\nHost: x\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\\r\\nSec-WebSocket-Version: 13\\r\\n\\r\\n")
            data = b""
            s.settimeout(30)
            while True:
                chunk = s.recv(65536)
                if not chunk: break
                data += chunk
                if b"\\r\\n\\r\\n" in data:
                    head, rest = data.split(b"\\r\\n\\r\\n", 1)
                    frames = []
                    while len(rest) >= 2 and len(rest) >= 2 + (rest[1] & 0x7f):
                        n = rest[1] & 0x7f
                        frames.append((rest[0] & 0x0f, rest[2:2 + n]))
                        rest = rest[2 + n:]
                    if any(op == 8 for op, _ in frames): break
            print(head.split(b"\\r\\n")[0].decode())
            for op, payload in frames:
                print(op, int.from_bytes(payload[:2], "big") if op == 8 else payload.decode())
            """
        let run = try Scrolld.runTool("/usr/bin/setpriv", ["--reuid=nobody", "--regid=nogroup", "--clear-groups", "/usr/bin/python3", "-c", script])
        let lines = String(decoding: run.stdout, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(lines.first == "HTTP/1.1 101 Switching Protocols", "\(lines)")
        #expect(lines.dropFirst().first?.hasPrefix(#"1 {"type":"error","code":"forbidden","message":"uid 65534 may not connect"#) == true, "\(lines)")
        #expect(lines.last == "8 1008", "\(lines)")
        #expect(daemon.waitForLog("refused a connection: uid 65534 may not connect"))
        let (web, upgraded) = try WebSocketClient.open(port: port)
        #expect(upgraded && web.readJSON()?["type"] as? String == "welcome")
        #expect(daemon.stop() == 0)
    }

    /// A browser's page from an origin not in `web.origins` is refused at the handshake (403,
    /// logged, never a WebSocket); a listed origin is served, matched exactly.
    @Test func anOriginNotInTheListIsRefused() throws {
        let port = try WebSocketClient.freePort()
        let daemon = try DaemonProcess(config: Self.config(port: port, origins: ["http://127.0.0.1:8080", "https://kiosk.example"]))
        for origin in ["http://evil.example", "http://127.0.0.1:8081", "https://kiosk.example.evil.example", "null", "HTTP://127.0.0.1:8080"] {
            let (client, upgraded) = try WebSocketClient.open(port: port, origin: origin)
            #expect(!upgraded, "\(origin)")
            #expect(client.response.hasPrefix("HTTP/1.1 403 Forbidden"), "\(origin): \(client.response)")
            #expect(client.response.contains("origin \(origin) is not in web.origins"), "\(origin)")
        }
        #expect(daemon.waitForLog("refused a connection: WebSocket handshake refused: origin http://evil.example is not in web.origins"))
        for origin in ["http://127.0.0.1:8080", "https://kiosk.example"] {
            let (client, upgraded) = try WebSocketClient.open(port: port, origin: origin)
            #expect(upgraded, "\(origin): \(client.response)")
            #expect(client.readJSON()?["type"] as? String == "welcome", "\(origin)")
        }
        // Elsewhere than /scrolld, or without an upgrade: an HTTP error that says where.
        let (elsewhere, upgradedElsewhere) = try WebSocketClient.open(port: port, path: "/")
        #expect(!upgradedElsewhere && elsewhere.response.hasPrefix("HTTP/1.1 404 Not Found"))
        #expect(elsewhere.response.contains("scrolld serves its protocol at /scrolld only"))
        #expect(daemon.stop() == 0)
    }

    /// An origin is shown at most 100 characters long (200 handshakes each with a new 60 KB
    /// origin wrote 12 MB to the journal), each refused origin is logged once, and at most 8
    /// causes between two accepted connections, however many a flood names; a wrong path is
    /// logged as one cause with the path asked for.
    @Test func refusedOriginsAreLoggedOnceAndShortWhateverTheySend() throws {
        let port = try WebSocketClient.freePort()
        let daemon = try DaemonProcess(config: Self.config(port: port, origins: ["http://127.0.0.1:8080"]))
        let long = "http://" + String(repeating: "a", count: 6000) + ".example"
        for index in 0..<20 {
            let (client, upgraded) = try WebSocketClient.open(port: port, origin: "\(long)/\(index)")
            #expect(!upgraded)
            #expect(client.response.hasPrefix("HTTP/1.1 403 Forbidden"), "\(client.response.prefix(200))")
            #expect(client.response.contains("origin \(long.prefix(100))… is not in web.origins"), "\(client.response.prefix(300))")
        }
        for index in 0..<20 {
            let (client, upgraded) = try WebSocketClient.open(port: port, origin: "http://o\(index).example")
            #expect(!upgraded && client.response.hasPrefix("HTTP/1.1 403 Forbidden"), "\(client.response.prefix(200))")
        }
        let (lost, _) = try WebSocketClient.open(port: port, path: "/lost")
        #expect(lost.response.hasPrefix("HTTP/1.1 404 Not Found"))
        // The daemon has read them all: a good handshake after them is served, and what is
        // refused after it is logged again.
        let (good, upgraded) = try WebSocketClient.open(port: port, origin: "http://127.0.0.1:8080")
        #expect(upgraded && good.readJSON()?["type"] as? String == "welcome")
        for path in ["/elsewhere", "/other"] {
            let (client, _) = try WebSocketClient.open(port: port, path: path)
            #expect(client.response.contains("\(path) is not served: scrolld serves its protocol at /scrolld only"), "\(client.response)")
        }
        _ = try WebSocketClient.open(port: port, origin: "http://o1.example")
        #expect(waitUntil(timeout: 30) { daemon.stderr.components(separatedBy: "origin http://o1.example is not in web.origins").count == 3 })
        #expect(daemon.stop() == 0)
        let refusals = daemon.stderr.components(separatedBy: "\n").filter { $0.contains("WebSocket handshake refused") }.map { $0.components(separatedBy: "refused a connection: ").last ?? $0 }
        let expected = ["WebSocket handshake refused: origin \(long.prefix(100))… is not in web.origins"]
            + (0..<6).map { "WebSocket handshake refused: origin http://o\($0).example is not in web.origins" }
            + ["WebSocket handshake refused: origin http://o6.example is not in web.origins; other refusals are not logged until a connection is accepted",
               "WebSocket handshake refused: /elsewhere is not served: scrolld serves its protocol at /scrolld only",
               "WebSocket handshake refused: origin http://o1.example is not in web.origins"]
        #expect(refusals == expected, "\(refusals.map { $0.prefix(200) })")
    }

    /// A handshake is at most 16 KiB of request line and headers: past that, 431 and the close,
    /// before NIO's decoder holds more of it (a megabyte of tiny headers cost 1.2 MB a
    /// connection, kept until the deadline).
    @Test func aHandshakeOverSixteenKibibytesIsRefusedWith431() throws {
        let port = try WebSocketClient.freePort()
        let daemon = try DaemonProcess(config: Self.config(port: port))
        let client = try WebSocketClient(port: port)
        var request = "GET /scrolld HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        for index in 0..<4000 { request += "x\(index): y\r\n" }
        _ = client.sendRaw(Array(request.utf8))
        #expect(!client.readResponse())
        #expect(client.response.hasPrefix("HTTP/1.1 431 Request Header Fields Too Large"), "\(client.response.prefix(200))")
        #expect(client.response.contains("a WebSocket handshake is at most 16 KiB of request line and headers"))
        // A handshake of ordinary size is served, and frames after it are not counted.
        let (web, upgraded) = try WebSocketClient.open(port: port)
        #expect(upgraded && web.readJSON()?["type"] as? String == "welcome")
        for id in 1...40 {
            _ = web.sendRaw(WebSocketClient.frame(opcode: 1, payload: WebLimitsTests.paddedPing(id: id, length: 1000)))
            #expect(web.readJSON()?["type"] as? String == "pong")
        }
        #expect(daemon.stop() == 0)
    }

    /// `web.origins` is read at each handshake: a reload adds an origin without a restart;
    /// `web.listen` waits for the next start, and the reload says so.
    @Test func aReloadChangesTheOriginsAndSaysTheAddressWaits() throws {
        let port = try WebSocketClient.freePort()
        let daemon = try DaemonProcess(config: Self.config(port: port))
        #expect(try !WebSocketClient.open(port: port, origin: "http://new.example").1)
        let other = try WebSocketClient.freePort()
        try Self.config(port: other, origins: ["http://new.example"]).write(toFile: daemon.configPath, atomically: true, encoding: .utf8)
        let unix = try LineClient(path: daemon.socketPath)
        _ = unix.readJSON()
        let reload = unix.request(["op": "reload"], id: 1)
        #expect((reload?["message"] as? String)?.contains("web.listen takes effect at the next start") == true, "\(String(describing: reload))")
        let (client, upgraded) = try WebSocketClient.open(port: port, origin: "http://new.example")
        #expect(upgraded && client.readJSON()?["type"] as? String == "welcome")
        #expect(daemon.stop() == 0)
    }

    /// RFC 6455 §4.2.1: a handshake names the upgrade in its Connection header too (a token of
    /// a list, any case); one that does not is refused with the reason.
    @Test func aHandshakeWithoutConnectionUpgradeIsRefused() throws {
        let port = try WebSocketClient.freePort()
        let daemon = try DaemonProcess(config: Self.config(port: port))
        for connection in [nil, "keep-alive", "close"] as [String?] {
            let client = try WebSocketClient(port: port)
            #expect(!client.handshake(connection: connection), "\(String(describing: connection))")
            #expect(client.response.hasPrefix("HTTP/1.1 400 Bad Request"), "\(client.response)")
            #expect(client.response.contains("a WebSocket handshake says Connection: Upgrade (RFC 6455)"), "\(client.response)")
        }
        for connection in ["keep-alive, Upgrade", "upgrade"] {
            let client = try WebSocketClient(port: port)
            #expect(client.handshake(connection: connection), "\(connection): \(client.response)")
        }
        #expect(daemon.stop() == 0)
    }

    /// RFC 7230 has header values without the spaces and tabs around them, and `Upgrade` and
    /// `Connection` as lists of case-insensitive tokens: each of these handshakes is upgraded
    /// (the key as NIO hashes it, trimmed), and one that lists no `websocket` gets 426 naming it.
    @Test func headerValuesAreReadAsRFC7230HasThem() throws {
        let port = try WebSocketClient.freePort()
        let daemon = try DaemonProcess(config: Self.config(port: port))
        for (name, value) in [
            ("Upgrade", "h2c, websocket"), ("Upgrade", "websocket, h2c"), ("Upgrade", "  websocket \t"), ("Upgrade", "WebSocket"),
            ("Connection", "keep-alive, Upgrade"), ("Connection", "Upgrade, keep-alive"), ("Connection", "upgrade "),
            ("Sec-WebSocket-Key", "dGhlIHNhbXBsZSBub25jZQ==  "), ("Sec-WebSocket-Version", " 13 "), ("Origin", "http://127.0.0.1:8080 "),
        ] {
            let headers = WebSocketClient.handshakeHeaders.filter { !$0.hasPrefix(name + ":") } + ["\(name): \(value)"]
            let client = try WebSocketClient(port: port)
            #expect(client.handshake(headers: headers), "\(name): \(value): \(client.response)")
            #expect(client.responseHeader("Sec-WebSocket-Accept") == ["s3pPLMBiTxaQ9kYGzzhZRbK+xOo="], "\(name): \(value)")
            #expect(client.readJSON()?["type"] as? String == "welcome", "\(name): \(value)")
        }
        let client = try WebSocketClient(port: port)
        #expect(!client.handshake(headers: WebSocketClient.handshakeHeaders.filter { !$0.hasPrefix("Upgrade:") } + ["Upgrade: h2c"]))
        #expect(client.response.hasPrefix("HTTP/1.1 426 Upgrade Required"), "\(client.response)")
        #expect(client.responseHeader("Upgrade") == ["websocket"], "\(client.response)")
        #expect(daemon.stop() == 0)
    }

    /// A handshake still unfinished at its deadline (10 s) gets `408 Request Timeout`, then the
    /// close: one that sent nothing, one that stopped in its headers, and one whose upgrade
    /// waits for a body that never comes.
    @Test func aHandshakeUnfinishedAtItsDeadlineGets408ThenTheClose() throws {
        let port = try WebSocketClient.freePort()
        let daemon = try DaemonProcess(config: Self.config(port: port))
        let silent = try WebSocketClient(port: port)
        let halfway = try WebSocketClient(port: port)
        halfway.sendRaw(Array("GET /scrolld HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\n".utf8))
        let bodiless = try WebSocketClient(port: port)
        let head = "GET /scrolld HTTP/1.1\r\n" + WebSocketClient.handshakeHeaders.map { $0 + "\r\n" }.joined() + "Content-Length: 5\r\n\r\n"
        bodiless.sendRaw(Array(head.utf8))
        for (what, client) in [("silent", silent), ("halfway", halfway), ("bodiless", bodiless)] {
            #expect(!client.readResponse(), "\(what)")
            #expect(client.response.hasPrefix("HTTP/1.1 408 Request Timeout"), "\(what): \(client.response)")
            #expect(client.response.contains("the WebSocket handshake did not complete within 10 s"), "\(what): \(client.response)")
            #expect(client.closedByPeer(), "\(what)")
        }
        let (web, upgraded) = try WebSocketClient.open(port: port)
        #expect(upgraded && web.readJSON()?["type"] as? String == "welcome")
        #expect(daemon.stop() == 0)
    }

    /// `check-config` refuses an origin no browser sends (it would never match), naming the
    /// one a browser sends.
    @Test func checkConfigRefusesAnOriginNoBrowserSends() throws {
        let file = try Scrolld.temporaryFile("[web]\norigins = [\"HTTP://127.0.0.1:8080\"]\n", name: "scrolld.toml")
        let check = try Scrolld.run(["check-config", file])
        let output = check.stderr + String(decoding: check.stdout, as: UTF8.self)
        #expect(check.status != 0, "\(output)")
        #expect(output.contains(#"web.origins: origins entry "HTTP://127.0.0.1:8080" is not an origin a browser sends: did you mean "http://127.0.0.1:8080"?"#), "\(output)")
    }

    /// Connections whose handshake is under way are bounded apart from the daemon's clients:
    /// past the limit a connection is answered 503 and closed, and the Unix socket is served
    /// all along. (15 000 unfinished handshakes held as many descriptors and 160 MB.)
    @Test func handshakesUnderWayAreBounded() throws {
        let port = try WebSocketClient.freePort()
        let daemon = try DaemonProcess(config: Self.config(port: port))
        let silent = try (0..<256).map { _ in try WebSocketClient(port: port) }
        let refused = try WebSocketClient(port: port)
        #expect(!refused.readResponse())
        #expect(refused.response.hasPrefix("HTTP/1.1 503 Service Unavailable"), "\(refused.response)")
        #expect(refused.response.contains("too many WebSocket handshakes under way (at most 256); try again"))
        let unix = try LineClient(path: daemon.socketPath)
        #expect(unix.readJSON()?["type"] as? String == "welcome")
        #expect(unix.request(["op": "ping"], id: 1)?["type"] as? String == "pong")
        // One of them goes: a handshake gets in again (once the daemon has seen the close).
        silent[0].close()
        #expect(waitUntil(timeout: 30) { (try? WebSocketClient.open(port: port).1) == true })
        #expect(daemon.waitForLog("refused a connection: WebSocket handshake refused: too many WebSocket handshakes under way"))
        withExtendedLifetime(silent) {}
        #expect(daemon.stop() == 0)
    }
}
