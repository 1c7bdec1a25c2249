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
}
