import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("scrolld run: subscription rates", .serialized)
struct SubscriptionRateTests {
    /// A `rate` subscriber and a plain one on the same 1000 Hz wheel burst (0.6 s, then 0.25 s
    /// to rest), looped so that whenever they subscribe a whole pass follows: the plain one gets
    /// every state; the one at 20 Hz gets the latest at most every 50 ms by the daemon's clock,
    /// ending on the same rest.
    @Test func aRateLimitedSubscriberGetsFewerStatesAndEndsOnTheLatest() throws {
        let count = 600
        var lines = [#"{"format":"scrolld-events","version":1,"created":"2026-11-22T00:00:00Z","source":"test"}"#]
        lines.append(#"{"t":0,"dev":1,"type":"device_added","name":"mouse","caps":["wheel"]}"#)
        for i in 0..<count { lines.append(#"{"t":\#(1_000_000 + i * 1000),"dev":1,"type":"wheel","v120":{"y":12}}"#) }
        let log = try Scrolld.temporaryFile(lines.joined(separator: "\n") + "\n")
        let daemon = try DaemonProcess(
            config: "[physics]\nwheel_animation = \"none\"\nwheel_step = 100\n[containers.main]\ncontentSize = \"800x100000000\"\n",
            arguments: ["--loop"], replay: log
        )
        let limited = try LineClient(path: daemon.socketPath)
        let plain = try LineClient(path: daemon.socketPath)
        for client in [limited, plain] { _ = client.readJSON() }
        #expect(limited.request(["op": "subscribe", "container": "main", "rate": 20], id: 1)?["type"] as? String == "state")
        #expect(plain.request(["op": "subscribe", "container": "main"], id: 1)?["type"] as? String == "state")
        let plainStream = StreamRecorder(plain)
        let limitedStream = StreamRecorder(limited)
        plainStream.start()
        limitedStream.start()
        defer {
            plainStream.stop()
            limitedStream.stop()
        }

        // A pass the plain subscriber read in time (its socket never filled: nothing may be
        // coalesced for it), trying the next if it did not; at most 5.
        var pass = try #require(plainStream.pass(), "no whole pass within 60 s")
        var attempts = 1
        while plainStream.mayHaveFilled(pass), attempts < 5 {
            attempts += 1
            pass = try #require(plainStream.pass(after: pass.upperBound), "no whole pass within 60 s")
        }
        let plainStates = plainStream.lines[pass].map(\.object).filter { $0["type"] as? String == "state" }
        let start = try #require(plainStates.first?.y) - 10
        let last = try #require(plainStates.last)
        // Every wheel event (10 px each) and the rest at the end reached the plain subscriber,
        // unless it read too slowly in every pass tried (then latest wins: only the order and
        // the end are judged).
        if plainStream.mayHaveFilled(pass) {
            print("rate: the plain subscriber's socket filled in all \(attempts) passes tried; every state not judged")
        } else {
            #expect(plainStates.count == count + 1)
            #expect(plainStates.dropLast().map(\.y) == (1...count).map { start + Double($0 * 10) })
        }
        #expect(last.y == start + Double(count * 10))
        let seqs = plainStates.compactMap { $0.int("seq") }
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 })

        // The limited one: the same last state, in order, and never two within 50 ms by the
        // daemon's clock. Bounded without timing the daemon: its first send of the pass came
        // once the pass' first event was due (`t`, on CLOCK_MONOTONIC; replay events go in when
        // due), its last before the read that brought it returned; n sends need n - 1 intervals.
        let firstSeq = try #require(seqs.first), lastSeq = try #require(last.int("seq"))
        try #require(waitUntil(timeout: 30) { limitedStream.lines.contains { $0.object.int("seq") == lastSeq } })
        let limitedLines = limitedStream.lines.filter { ($0.object.int("seq").map { (firstSeq...lastSeq).contains($0) }) ?? false }
        #expect(limitedLines.last?.object.int("seq") == lastSeq)
        #expect(limitedLines.last?.object.y == last.y)
        let limitedSeqs = limitedLines.compactMap { $0.object.int("seq") }
        #expect(zip(limitedSeqs, limitedSeqs.dropFirst()).allSatisfy { $0 < $1 })
        let firstT = try #require(plainStates.first?.t)
        let arrival = try #require(limitedLines.last?.arrival)
        #expect(Int64(limitedLines.count - 1) * 50_000_000 <= (arrival + 1 - firstT) * 1000, "\(limitedLines.count) states at rate 20 within \(arrival - firstT) µs")
        print("rate 20: \(limitedLines.count) states in a pass of \(plainStates.count), over \(Double(arrival - firstT) / 1000) ms")
        #expect(daemon.stop() == 0)
    }

    /// Subscriptions at a `rate` share one timer per rate; a client re-subscribing at ever new
    /// rates must not leave a timer behind for each (50 000 rates: without pruning, ~5 MiB).
    @Test func subscribingAtEverNewRatesLeavesNothingBehind() throws {
        let daemon = try DaemonProcess()
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        func resubscribe(_ rounds: Range<Int>) {
            for chunk in stride(from: rounds.lowerBound, to: rounds.upperBound, by: 500) {
                let batch = (chunk..<min(chunk + 500, rounds.upperBound)).map { i in
                    #"{"op":"subscribe","container":"main","id":\#(i),"rate":\#(1 + Double(i) / 1000)}"#
                }
                client.send(batch.joined(separator: "\n"))
                for _ in batch.indices { _ = client.readJSON(timeout: 30) }
            }
        }
        resubscribe(0..<5_000)  // warm-up: the allocator's arenas, the client's buffers
        let before = daemon.probe.residentKiB
        resubscribe(5_000..<55_000)
        let after = daemon.probe.residentKiB
        let pong = client.request(["op": "ping"], id: 1)
        #expect(pong?["type"] as? String == "pong", "connection ended: \(client.endReason ?? "no"); the daemon's log: \(daemon.stderr.suffix(2000))")
        #expect(after - before < 2048, "VmRSS grew from \(before) to \(after) KiB over 50 000 subscriptions at distinct rates")
        print("50 000 subscriptions at distinct rates: VmRSS \(before) -> \(after) KiB")
        #expect(daemon.stop() == 0)
    }
}
