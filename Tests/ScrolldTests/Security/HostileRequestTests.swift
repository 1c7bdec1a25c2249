import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// What a hostile client of the same uid sent to end or wedge the daemon for every app of the
/// user, each against a real daemon: the request is refused with an error that names the
/// problem, the daemon is still there, and another client's ping is answered after it
/// (docs/design.md, "Limits").
@Suite("scrolld against hostile requests", .serialized)
struct HostileRequestTests {
    /// Sends `line` (raw JSON, with `"id":N` in it) and returns the reply carrying that id.
    static func reply(_ client: LineClient, _ line: String, id: Int) -> [String: Any]? {
        client.send(line)
        while let object = client.readJSON() {
            if (object["id"] as? NSNumber)?.intValue == id { return object }
        }
        return nil
    }

    /// The daemon process still runs and answers a new client's ping.
    static func isHealthy(_ daemon: DaemonProcess) -> Bool {
        guard daemon.process.isRunning, let other = try? LineClient(path: daemon.socketPath) else { return false }
        _ = other.readJSON()
        return other.request(["op": "ping"], id: 1)?["type"] as? String == "pong"
    }

    static func error(_ reply: [String: Any]?) -> (code: String?, message: String) {
        (reply?["code"] as? String, reply?["message"] as? String ?? "")
    }

    /// Each number that used to trap (a tiny rate, a huge velocity window or wheel idle time),
    /// poison the state with NaN (a spring of duration 1e200 or stiffness 1e308, row heights of
    /// 1e308, an observation step of 1e-320) or animate for years (a bounce of −0.99999999) is
    /// refused with the range it must lie in.
    @Test func numbersThatUsedToEndTheDaemonAreRefusedWithTheirRange() throws {
        let daemon = try DaemonProcess()
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        let cases: [(line: String, message: String)] = [
            (#"{"op":"subscribe","container":"main","rate":1e-10,"id":1}"#,
             #"invalid "rate": expected a number between 0.001 and 1000, got 1e-10"#),
            (#"{"op":"configure","container":"V","physics":{"velocity_window":1e308},"id":2}"#,
             "containers.V.physics.velocity_window: must be between 0.001 and 1, got 1e+308"),
            (#"{"op":"configure","container":"V","physics":{"velocity_window":100},"id":3}"#,
             "containers.V.physics.velocity_window: must be between 0.001 and 1, got 100"),
            (#"{"op":"configure","container":"main","physics":{"wheel_idle":1e13},"id":4}"#,
             "containers.main.physics.wheel_idle: must be between 0 and 10, got 10000000000000.0"),
            (#"{"op":"configure","container":"main","physics":{"wheel_idle":3600},"id":5}"#,
             "containers.main.physics.wheel_idle: must be between 0 and 10, got 3600"),
            (#"{"op":"configure","container":"main","containerSize":[800,500],"animation":{"spring":{"duration":1e200,"bounce":0}},"id":6}"#,
             #"invalid "animation.spring.duration": expected a number between 0.001 and 10, got 1e200"#),
            (#"{"op":"scrollTo","container":"main","y":100,"animation":{"spring":{"stiffness":1e308,"damping":1e308}},"id":7}"#,
             #"invalid "animation.spring.stiffness": expected a number between 0.1 and 1e7, got 1e308"#),
            (#"{"op":"scrollTo","container":"main","y":100,"animation":{"spring":{"stiffness":100,"damping":1e6}},"id":8}"#,
             #"invalid "animation.spring.damping": expected a number between 0.05·2√stiffness and 20·2√stiffness (a damping ratio the spring settles with), got 1e6"#),
            (#"{"op":"scrollTo","container":"main","y":100,"animation":{"spring":{"duration":0.5,"bounce":-0.99999999}},"id":9}"#,
             #"invalid "animation.spring.bounce": expected a number between -0.9 and 0.9, got -0.99999999"#),
            (#"{"op":"observe","container":"main","of":"contentOffset.y","step":1e-320,"id":10}"#,
             #"invalid "step": must be between 1e-6 and 1e9, got 1e-320"#),
            (#"{"op":"configure","container":"main","rows":{"heights":[1e308,1e308]},"id":11}"#,
             "containers.main.rows.heights: must be between -1e9 and 1e9, got 1e+308"),
            (#"{"op":"scrollBy","container":"main","dy":1e300,"id":12}"#,
             #"invalid "dy": expected a number between -1e9 and 1e9, got 1e300"#),
            // A step past the general range is told a step's own range, as one below it is.
            (#"{"op":"observe","container":"main","of":"contentOffset.y","step":1e300,"id":13}"#,
             #"invalid "step": must be between 1e-6 and 1e9, got 1e+300"#),
            (#"{"op":"observe","container":"main","of":"contentOffset.y","step":1e400,"id":14}"#,
             #"invalid "step": must be between 1e-6 and 1e9, got inf"#),
        ]
        for (line, message) in cases {
            let id = Int(line.split(separator: ":").last!.dropLast())!
            let reply = Self.reply(client, line, id: id)
            #expect(reply?["type"] as? String == "error", "\(line)")
            #expect(Self.error(reply).code == "invalid_value", "\(line)")
            #expect(Self.error(reply).message == message, "\(line)")
            #expect(Self.isHealthy(daemon), "\(line)")
        }
        // Nothing was applied: the container still moves with sane physics, and its state is
        // finite (a NaN state used to be written as 0).
        let state = client.request(["op": "get", "container": "main"], id: 99)
        #expect(state?["type"] as? String == "state")
        #expect(daemon.stop() == 0)
    }

    /// A parent chain deeper than 32, and containers past 1000, are refused by name (a chain
    /// 10 000 deep used to hold the loop for minutes, and nothing capped the containers).
    @Test func chainsAndContainersHaveALimitAndANamedError() throws {
        let daemon = try DaemonProcess()
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        // main is the first of the chain: c1 … c31 make 32 containers in it.
        var parent = "main"
        for depth in 1...31 {
            let reply = client.request(["op": "configure", "container": "c\(depth)", "parent": parent], id: depth)
            #expect(reply?["type"] as? String == "ok", "\(depth): \(String(describing: reply))")
            parent = "c\(depth)"
        }
        let deep = client.request(["op": "configure", "container": "c32", "parent": parent], id: 32)
        #expect(Self.error(deep).code == "invalid_value")
        #expect(Self.error(deep).message == "containers.c32.parent: nesting deeper than 32 containers (a chain of 33)")
        // A container that holds a chain cannot be hung under another either.
        let under = client.request(["op": "configure", "container": "top"], id: 33)
        #expect(under?["type"] as? String == "ok")
        let hung = client.request(["op": "configure", "container": "main", "parent": "top"], id: 34)
        #expect(Self.error(hung).message == "containers.main.parent: nesting deeper than 32 containers (a chain of 33)")

        // 33 containers so far; 967 more reach the limit, pipelined a hundred at a time (a
        // client that sends without reading its replies is paused until it reads them).
        var oks = 0
        for batch in stride(from: 0, to: 967, by: 100) {
            let indices = batch..<min(batch + 100, 967)
            for index in indices { client.send(#"{"op":"configure","container":"many\#(index)","id":\#(1000 + index)}"#) }
            for _ in indices where client.readJSON()?["type"] as? String == "ok" { oks += 1 }
        }
        #expect(oks == 967)
        let over = client.request(["op": "configure", "container": "one-too-many"], id: 5000)
        #expect(Self.error(over).code == "too_large")
        #expect(Self.error(over).message == "too many containers: the daemon holds at most 1000; remove one first")
        #expect(client.request(["op": "remove", "container": "many0"], id: 5001)?["type"] as? String == "ok")
        #expect(client.request(["op": "configure", "container": "one-too-many"], id: 5002)?["type"] as? String == "ok")
        #expect(Self.isHealthy(daemon))
        #expect(daemon.stop() == 0)
    }

    /// Past the connection limit (here 64: two descriptors per client, and 384 kept for the
    /// daemon, the connections that linger after a refusal and WebSocket handshakes; 515 more
    /// while systemd's file descriptor store is on, for stores waiting for a slow manager) a
    /// connection is told so and closed; the daemon keeps serving the others, and takes new ones
    /// again once some have gone.
    @Test(arguments: [(512, false), (1027, true)])
    func connectionsPastTheLimitAreRefusedAndTheDaemonGoesOn(descriptors: Int, store: Bool) throws {
        // The harness' notify socket stands in for systemd: the store is on unless FDSTORE=0.
        let daemon = try DaemonProcess(
            environment: store ? [:] : ["FDSTORE": "0"], launcher: ["/usr/bin/prlimit", "--nofile=\(descriptors):\(descriptors)", "--"])
        var clients: [LineClient] = []
        for _ in 0..<64 {
            let client = try LineClient(path: daemon.socketPath)
            #expect(client.readJSON()?["type"] as? String == "welcome")
            clients.append(client)
        }
        for _ in 0..<20 {
            let refused = try LineClient(path: daemon.socketPath)
            let reply = refused.readJSON()
            #expect(Self.error(reply).code == "too_large")
            #expect(Self.error(reply).message == "too many connections: the daemon serves at most 64 at once")
            #expect(refused.isClosed())
        }
        #expect(clients[0].request(["op": "ping"], id: 1)?["type"] as? String == "pong")
        #expect(daemon.stderr.components(separatedBy: "refused a connection: too many connections").count == 2)
        for client in clients.suffix(10) { client.close() }
        #expect(waitUntil(timeout: 30) { Self.isHealthy(daemon) })
        #expect(daemon.stop() == 0)
    }

    /// Names are the bytes a client sent; a removed parent leaves its
    /// child configurable; an anchor without a row is `invalid_value` naming `anchor`.
    @Test func namesParentsAndAnchorsBehaveAsDocumented() throws {
        let daemon = try DaemonProcess()
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        let composed = "Caf\u{E9}", decomposed = "Cafe\u{301}"
        #expect(client.request(["op": "configure", "container": composed], id: 1)?["type"] as? String == "ok")
        let alias = client.request(["op": "configure", "container": decomposed], id: 2)
        #expect(Self.error(alias).code == "invalid_value")
        #expect(Self.error(alias).message == "invalid \"container\": \"\(decomposed)\" is another Unicode spelling of an existing container's name; use that container's exact name, or another name")
        #expect(Self.error(client.request(["op": "subscribe", "container": decomposed], id: 3)).code == "unknown_container")
        let state = client.request(["op": "subscribe", "container": composed], id: 4)
        #expect((state?["container"] as? String).map { Array($0.utf8) } == Array(composed.utf8))

        #expect(client.request(["op": "configure", "container": "PA"], id: 5)?["type"] as? String == "ok")
        #expect(client.request(["op": "configure", "container": "CH", "parent": "PA"], id: 6)?["type"] as? String == "ok")
        #expect(client.request(["op": "remove", "container": "PA"], id: 7)?["type"] as? String == "ok")
        #expect(client.request(["op": "configure", "container": "CH", "containerSize": [400, 300]], id: 8)?["type"] as? String == "ok")
        // Naming a parent that is gone is still refused.
        let gone = client.request(["op": "configure", "container": "CH", "parent": "PA"], id: 9)
        #expect(Self.error(gone).message == "containers.CH.parent: no container \"PA\" to nest in (parent names another container)")

        // A file naming another spelling of a client's container is refused as a whole (it
        // would have made a second container no request could name).
        try "[containers.\"Cafe\\u0301\"]\naxes = \"both\"\n".write(toFile: daemon.configPath, atomically: true, encoding: .utf8)
        let reload = client.request(["op": "reload"], id: 11)
        #expect(reload?["ok"] as? Bool == false)
        #expect((reload?["message"] as? String)?.contains("is another Unicode spelling of the name of a container a client created") == true, "\(reload ?? [:])")
        #expect(client.request(["op": "get", "container": composed], id: 12)?["type"] as? String == "state")

        let anchor = Self.reply(client, #"{"op":"scrollTo","container":"main","anchor":"center","id":10}"#, id: 10)
        #expect(Self.error(anchor).code == "invalid_value")
        #expect(Self.error(anchor).message == #"invalid "anchor": expected an anchor together with a row ("row": N) to place, got "center""#)
        #expect(daemon.stop() == 0)
    }

    /// A line of 10 MB, sent by a client that writes it whole before it reads: every byte is
    /// taken (the daemon discards them while it lingers), then the client reads `too_large` and
    /// the end of the connection. Closing at once made the client's send fail half way
    /// (EPIPE), before it could read why.
    @Test func aTenMegabyteLineIsAnsweredBeforeTheConnectionCloses() throws {
        let daemon = try DaemonProcess()
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        let line = Array((#"{"op":"ping","pad":""# + String(repeating: "x", count: 10_000_000) + "\"}\n").utf8)
        var offset = 0, failure: Int32 = 0
        while offset < line.count {
            let sent = line[offset...].withUnsafeBytes { Glibc.send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent <= 0 {
                failure = errno
                break
            }
            offset += sent
        }
        #expect(failure == 0, "send failed after \(offset) bytes: \(String(cString: strerror(failure)))")
        #expect(offset == line.count)
        let reply = client.readJSON()
        #expect(Self.error(reply).code == "too_large")
        #expect(client.isClosed())
        #expect(Self.isHealthy(daemon))
        #expect(daemon.stop() == 0)
    }
}
