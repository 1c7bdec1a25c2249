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
        // Looped, so that whenever the client subscribes, whole passes follow.
        let daemon = try DaemonProcess(arguments: ["--loop"], replay: log)
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        #expect(client.request(["op": "subscribe", "container": "main"], id: 1)?["type"] as? String == "state")
        let stream = StreamRecorder(client)
        stream.start()
        // A pass this test read in time (its socket never filled, so nothing may have been
        // coalesced), trying the next if not; at most 5.
        var pass = try #require(stream.pass(), "no whole pass within 60 s")
        var attempts = 1
        while stream.mayHaveFilled(pass), attempts < 5 {
            attempts += 1
            pass = try #require(stream.pass(after: pass.upperBound), "no whole pass within 60 s")
        }
        stream.stop()
        #expect(daemon.stop() == 0)
        let states = stream.lines[pass].filter { $0.object["type"] as? String == "state" }.map { (state: $0.object, receivedAt: $0.arrival) }
        try #require(states.count > 1)

        // A state describes a moment that has come: t is never later than the clock on arrival.
        let ahead = states.filter { $0.state.t! > $0.receivedAt }
        #expect(ahead.count == 0, "\(ahead.count) of \(states.count) states arrived before their t, the first \(ahead.first.map { "by \($0.state.t! - $0.receivedAt) µs" } ?? "")")
        let times = states.map { $0.state.t! }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        let seqs = states.compactMap { $0.state.int("seq") }
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 })
        #expect(states.last?.state.phase == "idle")
        if stream.mayHaveFilled(pass) {
            print("live time: this test's socket filled in all \(attempts) passes tried; every state not judged")
            return
        }
        // Nothing was coalesced, so every event's state is there, at the event's own time
        // (the first state is the first event's: the daemon was idle before it).
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $1 == $0 + 1 })
        let base = times[0] - 1_000_000
        let published = Set(times)
        let missing = (0..<count).filter { !published.contains(base + 1_000_000 + Int64($0) * 1000) }
        #expect(missing.count == 0, "\(missing.count) of \(count) wheel events have no state at their own time, the first is event \(missing.first ?? -1)")
        #expect(states.count > count)
    }
}
