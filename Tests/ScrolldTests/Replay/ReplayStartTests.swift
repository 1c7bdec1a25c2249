import Foundation
import Testing

/// `run --replay LOG --replay-start first-client` (docs/design.md §20): the log plays from the
/// moment the first client connects, so a test or a demo connects before anything moves.
@Suite("run --replay-start")
struct ReplayStartTests {
    /// A wheel notch three seconds into the log. Played from the connection, the subscriber
    /// first sees the container at rest where it starts, then every state after it is
    /// stamped at least three seconds after the client connected (states carry the daemon's
    /// CLOCK_MONOTONIC, which this process reads too). Played from the daemon's start, before
    /// its READY=1, they would be stamped earlier than that.
    @Test func theLogPlaysFromTheFirstConnection() throws {
        let log = try Self.write("""
            {"format":"scrolld-events","version":1,"created":"2026-11-27T00:00:00Z","source":"one notch, three seconds in"}
            {"t":1000000000,"dev":1,"type":"device_added","name":"Wheel","caps":["wheel"]}
            {"t":1003000000,"dev":1,"type":"wheel","v120":{"y":120},"deg":{"y":15}}
            """)
        defer { try? FileManager.default.removeItem(atPath: log) }
        let daemon = try DaemonProcess(arguments: ["--replay-start", "first-client"], replay: log)
        #expect(daemon.waitForLog("from when the first client connects"))

        let connected = monotonicMicroseconds()
        let client = try LineClient(path: daemon.socketPath)
        defer { client.close() }
        #expect(client.read(type: "welcome")?["type"] as? String == "welcome")
        let first = try #require(client.request(["op": "subscribe", "container": "main"], id: 1))
        #expect(first.y == 0 && first.phase == "idle")
        // Every state after that one: the notch's (at its own time) and the frames after it.
        var moved: [[String: Any]] = []
        while let line = client.readJSON(timeout: 60), line["type"] as? String == "state" {
            moved.append(line)
            if line.y != 0, line.phase == "idle" { break }
        }
        try #require(moved.last?.phase == "idle" && moved.last?.y != 0, "the notch's scroll did not come to rest: \(moved.count) states")
        for state in moved {
            let t = try #require(state.t)
            #expect(t >= connected + 3_000_000, "a state at \(t) µs, the connection at \(connected) µs")
        }
    }

    @Test func replayStartGoesWithReplay() throws {
        let result = try Scrolld.run(["run", "--replay-start", "first-client"])
        #expect(result.status == 64)
        #expect(result.stderr.contains("--replay-start goes with --replay"))
    }

    private static func write(_ text: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("replay-start-\(UUID().uuidString).scrolllog").path
        try (text + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }
}
