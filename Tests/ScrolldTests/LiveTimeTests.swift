import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("scrolld run: live states carry their own time", .serialized)
struct LiveTimeTests {
    /// `run --replay` re-stamps the log onto CLOCK_MONOTONIC (`start + offset`), so a
    /// subscriber can tell latency from `t` alone. Here the wheel's spring is running while
    /// events arrive every millisecond, so event and frame wake-ups are often due in the same
    /// event-loop tick: a superseded frame wake-up once ran the next frame early, and every
    /// input until then was published with that future frame's time instead of its own.
    @Test func replayedWheelEventsKeepTheirTimesAndNoStateIsAheadOfTheClock() throws {
        let count = 1500
        var lines = [#"{"format":"scrolld-events","version":1,"created":"2026-11-22T00:00:00Z","source":"test"}"#]
        lines.append(#"{"t":0,"dev":1,"type":"device_added","name":"mouse","caps":["wheel"]}"#)
        for i in 0..<count {
            // Down for 100 events, up for 100: the spring never settles during the burst.
            lines.append(#"{"t":\#(1_000_000 + i * 1000),"dev":1,"type":"wheel","v120":{"y":\#((i / 100) % 2 == 0 ? 120 : -120)}}"#)
        }
        let log = try Scrolld.temporaryFile(lines.joined(separator: "\n") + "\n")
        let daemon = try DaemonProcess(replay: log)
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        let subscribed = try #require(client.request(["op": "subscribe", "container": "main"], id: 1))
        #expect(subscribed.phase == "idle")

        var states: [(state: [String: Any], receivedAt: Int64)] = []
        while let line = client.readJSON(timeout: 3) {
            var now = timespec()
            clock_gettime(CLOCK_MONOTONIC, &now)
            guard line["type"] as? String == "state" else { continue }
            states.append((line, Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000))
            if line.phase == "idle" { break }
        }
        #expect(daemon.stop() == 0)
        try #require(states.count > count)

        // A state describes a moment that has come: t is never later than the clock on arrival.
        let ahead = states.filter { $0.state.t! > $0.receivedAt }
        #expect(ahead.count == 0, "\(ahead.count) of \(states.count) states arrived before their t, the first \(ahead.first.map { "by \($0.state.t! - $0.receivedAt) µs" } ?? "")")
        let times = states.map { $0.state.t! }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        // Nothing was coalesced, so every event's state is there, at the event's own time
        // (the first state is the first event's: the daemon was idle before it).
        let seqs = states.compactMap { $0.state.int("seq") }
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $1 == $0 + 1 })
        let base = times[0] - 1_000_000
        let published = Set(times)
        let missing = (0..<count).filter { !published.contains(base + 1_000_000 + Int64($0) * 1000) }
        #expect(missing.count == 0, "\(missing.count) of \(count) wheel events have no state at their own time, the first is event \(missing.first ?? -1)")
        #expect(states.last?.state.phase == "idle")
    }
}
