import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("scrolld run: subscription rates", .serialized)
struct SubscriptionRateTests {
    /// A `rate` subscriber and a plain one on the same 1000 Hz wheel burst (0.6 s, then 0.25 s
    /// to rest): the plain one gets every state; the one at 20 Hz gets about 18, always the
    /// latest, ending on the same rest. (The bound below leaves room for a loaded machine: the
    /// limit counts the daemon's wall-clock time, which a stalled process stretches.)
    @Test func aRateLimitedSubscriberGetsFewerStatesAndEndsOnTheLatest() throws {
        let count = 600
        var lines = [#"{"format":"scrolld-events","version":1,"created":"2026-11-22T00:00:00Z","source":"test"}"#]
        lines.append(#"{"t":0,"dev":1,"type":"device_added","name":"mouse","caps":["wheel"]}"#)
        for i in 0..<count { lines.append(#"{"t":\#(1_000_000 + i * 1000),"dev":1,"type":"wheel","v120":{"y":12}}"#) }
        let log = try Scrolld.temporaryFile(lines.joined(separator: "\n") + "\n")
        let daemon = try DaemonProcess(config: "[physics]\nwheel_animation = \"none\"\nwheel_step = 100\n", replay: log)
        let limited = try LineClient(path: daemon.socketPath)
        let plain = try LineClient(path: daemon.socketPath)
        for client in [limited, plain] { _ = client.readJSON() }
        #expect(limited.request(["op": "subscribe", "container": "main", "rate": 20], id: 1)?["type"] as? String == "state")
        #expect(plain.request(["op": "subscribe", "container": "main"], id: 1)?["type"] as? String == "state")

        var plainStates: [[String: Any]] = []
        while let line = plain.readJSON(timeout: 3) {
            guard line["type"] as? String == "state" else { continue }
            plainStates.append(line)
            if line.phase == "idle" { break }
        }
        var limitedStates: [[String: Any]] = []
        while let line = limited.readJSON(timeout: 1) {
            guard line["type"] as? String == "state" else { continue }
            limitedStates.append(line)
            if line.phase == "idle" { break }
        }
        #expect(daemon.stop() == 0)

        // Every wheel event (10 px each) and the rest at the end reached the plain subscriber.
        #expect(plainStates.count == count + 1)
        #expect(plainStates.last?.y == Double(count * 10))
        // The limited one ends on the same latest state, after far fewer.
        #expect(limitedStates.last?.int("seq") == plainStates.last?.int("seq"))
        #expect(limitedStates.last?.y == Double(count * 10))
        #expect(limitedStates.count >= 2)
        #expect(limitedStates.count < count / 5, "\(limitedStates.count) states at rate 20")
        let seqs = limitedStates.compactMap { $0.int("seq") }
        #expect(zip(seqs, seqs.dropFirst()).allSatisfy { $0 < $1 })
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
        #expect(client.request(["op": "ping"], id: 1)?["type"] as? String == "pong")
        #expect(after - before < 2048, "VmRSS grew from \(before) to \(after) KiB over 50 000 subscriptions at distinct rates")
        print("50 000 subscriptions at distinct rates: VmRSS \(before) -> \(after) KiB")
        #expect(daemon.stop() == 0)
    }
}
