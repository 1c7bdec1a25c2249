import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The WebSocket listener under the Unix socket's limits (docs/design.md §7, §24), each against
/// a real daemon: a message is a line, up to 64 KiB, whatever its framing; past that the
/// connection gets `too_large` and closes (1009); a binary message is a bad request, text that
/// is not UTF-8 closes (1007); a reader that stops is dropped as on the Unix socket; and every
/// other client is served meanwhile.
@Suite("scrolld's WebSocket listener: limits", .serialized)
struct WebLimitsTests {
    /// A daemon with the listener on, and a way to check it still serves both sockets.
    struct Served {
        let daemon: DaemonProcess
        let port: Int

        init(arguments: [String] = []) throws {
            port = try WebSocketClient.freePort()
            daemon = try DaemonProcess(config: WebListenerTests.config(port: port), arguments: arguments)
        }

        func connect() throws -> WebSocketClient {
            let (client, upgraded) = try WebSocketClient.open(port: port)
            try #require(upgraded, "\(client.response)")
            try #require(client.readJSON()?["type"] as? String == "welcome")
            return client
        }

        /// A new WebSocket client and a new Unix client each get their ping answered.
        var servesOthers: Bool {
            guard let web = try? connect(), web.request(["op": "ping"], id: 1)?["type"] as? String == "pong" else { return false }
            guard let unix = try? LineClient(path: daemon.socketPath) else { return false }
            _ = unix.readJSON()
            return unix.request(["op": "ping"], id: 1)?["type"] as? String == "pong"
        }
    }

    /// A ping padded with spaces to `length` bytes: still one request.
    static func paddedPing(id: Int, length: Int) -> [UInt8] {
        let ping = Array(#"{"op":"ping","id":\#(id)}"#.utf8)
        return ping + [UInt8](repeating: 0x20, count: length - ping.count)
    }

    /// Expects the Unix socket's answer to a line over the limit: `too_large`, then close 1009.
    static func expectLineTooLong(_ frames: [WebSocketClient.Frame], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(frames.first?.json?["code"] as? String == "too_large", "\(frames.map(\.text))", sourceLocation: sourceLocation)
        #expect(frames.last?.closeCode == 1009, "\(frames.map(\.opcode))", sourceLocation: sourceLocation)
    }

    @Test func aMessageOfExactly64KiBIsServedAndOneByteMoreClosesWith1009() throws {
        let served = try Served()
        let client = try served.connect()
        client.sendRaw(WebSocketClient.frame(opcode: 1, payload: Self.paddedPing(id: 1, length: 64 * 1024)))
        #expect(client.readJSON()?["type"] as? String == "pong")
        client.sendRaw(WebSocketClient.frame(opcode: 1, payload: Self.paddedPing(id: 2, length: 64 * 1024 + 1)))
        Self.expectLineTooLong(client.framesUntilClose())
        #expect(served.servesOthers)
        #expect(served.daemon.stop() == 0)
    }

    /// Fragments are put together into one line (docs/decisions.md): a ping in three fragments
    /// is answered; fragments that add up to more than 64 KiB are a line too long.
    @Test func fragmentedMessagesAreReassembledWithinTheLineLimit() throws {
        let served = try Served()
        let client = try served.connect()
        let ping = Array(#"{"op":"ping","id":7}"#.utf8)
        client.sendRaw(WebSocketClient.frame(opcode: 1, payload: Array(ping[..<5]), fin: false))
        client.sendRaw(WebSocketClient.frame(opcode: 0, payload: Array(ping[5..<12]), fin: false))
        client.sendRaw(WebSocketClient.frame(opcode: 0, payload: Array(ping[12...]), fin: true))
        #expect(client.readJSON()?["id"] as? Int == 7)
        let padded = Self.paddedPing(id: 8, length: 40 * 1024)
        client.sendRaw(WebSocketClient.frame(opcode: 1, payload: padded, fin: false))
        client.sendRaw(WebSocketClient.frame(opcode: 0, payload: padded, fin: true))
        Self.expectLineTooLong(client.framesUntilClose())
        // A continuation that continues nothing is a protocol error: 1002 at once.
        let lone = try served.connect()
        lone.sendRaw(WebSocketClient.frame(opcode: 0, payload: ping, fin: true))
        #expect(lone.framesUntilClose().last?.closeCode == 1002)
        #expect(served.servesOthers)
        #expect(served.daemon.stop() == 0)
    }

    /// A binary message is no protocol line: a `bad_request` that says so, and the connection
    /// stays, as after any bad request.
    @Test func aBinaryMessageIsABadRequestAndTheConnectionStays() throws {
        let served = try Served()
        let client = try served.connect()
        client.sendRaw(WebSocketClient.frame(opcode: 2, payload: Array(#"{"op":"ping","id":1}"#.utf8)))
        let reply = client.readJSON()
        #expect(reply?["code"] as? String == "bad_request")
        #expect(reply?["message"] as? String == "binary messages are not protocol lines: send each request as a text message")
        #expect(client.request(["op": "ping"], id: 2)?["type"] as? String == "pong")
        #expect(served.servesOthers)
        #expect(served.daemon.stop() == 0)
    }

    /// A 10 MB message is refused from its header on (never buffered): `too_large`, 1009, and
    /// the daemon's memory does not grow by it.
    @Test func aTenMegabyteMessageIsRefusedWithoutBeingBuffered() throws {
        let served = try Served()
        let client = try served.connect()
        let before = served.daemon.probe.residentKiB
        let message = Self.paddedPing(id: 1, length: 10 * 1024 * 1024)
        let fd = client.fd
        let sender = Thread { WebSocketClient.send(WebSocketClient.frame(opcode: 1, payload: message), on: fd) }
        sender.start()
        Self.expectLineTooLong(client.framesUntilClose())
        #expect(served.servesOthers)
        let after = served.daemon.probe.residentKiB
        #expect(after - before < 8 * 1024, "resident memory grew from \(before) to \(after) KiB")
        client.close()
        #expect(served.daemon.stop() == 0)
    }

    /// A text message that is not UTF-8 fails the connection with 1007 (RFC 6455 §8.1: its
    /// framing, not a request, is broken), the problem named; the same bytes on the Unix
    /// socket, which carries bytes, are a bad request there and the connection stays
    /// (docs/decisions.md).
    @Test func invalidUTF8ClosesWith1007() throws {
        let served = try Served()
        let client = try served.connect()
        let broken = Array(#"{"op":"ping","id":1,"x":""#.utf8) + [0xFF, 0xFE, 0xC3] + Array(#""}"#.utf8)
        client.sendRaw(WebSocketClient.frame(opcode: 1, payload: broken))
        let frames = client.framesUntilClose()
        #expect(frames.map(\.opcode) == [8], "\(frames.map(\.text))")
        #expect(frames.last?.closeCode == 1007)
        #expect(frames.last?.closeReason == "a text message that is not UTF-8")
        let unix = try LineClient(path: served.daemon.socketPath)
        _ = unix.readJSON()
        let lineBytes = broken + [0x0A]
        _ = lineBytes.withUnsafeBytes { Glibc.send(unix.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        #expect(unix.readJSON()?["code"] as? String == "bad_request")
        #expect(unix.request(["op": "ping"], id: 2)?["type"] as? String == "pong")
        #expect(served.servesOthers)
        #expect(served.daemon.stop() == 0)
    }

    /// A client that sends without reading its replies is not read either once its socket is
    /// full (backpressure, nothing queued without bound), then dropped after the stuck-client
    /// timeout as on the Unix socket, while everyone else is served.
    @Test func aSlowReaderIsDroppedAsOnTheUnixSocketWhileOthersAreServed() throws {
        let served = try Served(arguments: ["--stuck-client-timeout", "2"])
        let slow = try served.connect()
        let accepted = try #require(Self.daemonSocket(of: slow, port: served.port), "no socket of the daemon's serves it")
        #expect(slow.request(["op": "subscribe", "container": "main"], id: 1)?["type"] as? String == "state")
        _ = fcntl(slow.fd, F_SETFL, fcntl(slow.fd, F_GETFL) | O_NONBLOCK)
        let get = WebSocketClient.frame(opcode: 1, payload: Array(#"{"op":"get","container":"main"}"#.utf8))
        let burst = Array(Array(repeating: get, count: 256).joined())
        let dropped = "that has not read for more than 2.0 s"
        let stopped = waitUntil(timeout: 60) {
            while burst.withUnsafeBytes({ send(slow.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 {}
            return served.daemon.probe.stoppedReading(slow.fd) || served.daemon.stderr.contains(dropped)
        }
        #expect(stopped, "the daemon kept reading a client that never reads its replies")
        #expect(served.servesOthers)
        #expect(served.daemon.waitForLog(dropped, timeout: 30), "\(served.daemon.stderr)")
        #expect(served.servesOthers)
        // Dropped is released, while it still reads nothing: its close frame cannot go out, and
        // waiting for it held the connection, its descriptor and its place for good.
        #expect(waitUntil(timeout: 30) { !served.daemon.probe.descriptors.contains(accepted) }, "\(accepted) still open")
        withExtendedLifetime(slow) {}
        #expect(served.daemon.stop() == 0)
    }

    /// The daemon's end of `client`'s connection to `port`, as /proc/PID/fd names it
    /// (`socket:[INODE]`), found in /proc/net/tcp by the client's own port.
    static func daemonSocket(of client: WebSocketClient, port: Int) -> String? {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(client.fd, $0, &length) }
        }
        // procFile reads to the end: String(contentsOfFile:) stops at the first 4 KiB a proc
        // file hands out, 26 connections, and other suites hold a thousand.
        guard named == 0 else { return nil }
        let table = ["/proc/net/tcp", "/proc/net/tcp6"].compactMap(procFile).joined(separator: "\n")
        let local = String(format: ":%04X", port), remote = String(format: ":%04X", Int(UInt16(bigEndian: address.sin_port)))
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count > 9, fields[1].hasSuffix(local), fields[2].hasSuffix(remote) { return "socket:[\(fields[9])]" }
        }
        return nil
    }

    /// 1000 WebSocket connections at once are all greeted and served, and a Unix client too.
    @Test func aThousandConnectionsAreAllServed() throws {
        let served = try Served()
        var clients: [WebSocketClient] = []
        for _ in 0..<1000 { clients.append(try served.connect()) }
        for (index, client) in clients.enumerated() where index % 100 == 0 {
            #expect(client.request(["op": "ping"], id: index)?["type"] as? String == "pong", "\(index)")
        }
        #expect(served.servesOthers)
        for client in clients { client.close() }
        #expect(served.daemon.stop() == 0)
    }
}
