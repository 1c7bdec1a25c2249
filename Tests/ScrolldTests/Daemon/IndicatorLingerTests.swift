import Foundation
import Testing

/// docs/design.md §22: the scroll indicators' linger costs the daemon one wake-up and one state
/// when they hide, and nothing while idle afterwards. Told from /proc (ProcessProbe), one look at
/// a time: no test here judges time.
@Suite("Scroll indicators' linger in the daemon")
struct IndicatorLingerTests {
    @Test func theHideIsOneWakeUpAndOneStateAndThenNothing() throws {
        let daemon = try DaemonProcess()
        let probe = daemon.probe
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        // A linger long enough that the daemon is seen asleep, its hide timer armed, before it
        // fires (the look takes a few milliseconds).
        let configure: [String: Any] = ["op": "configure", "container": "main", "indicatorLingerMs": 5000]
        #expect(client.request(configure, id: 1)?["type"] as? String == "ok")
        #expect(client.request(["op": "subscribe", "container": "main"], id: 2)?["type"] as? String == "state")
        let moved = client.linesBeforeReply(to: ["op": "scrollTo", "container": "main", "y": 300, "animation": "none"], id: 3)
        #expect(moved.reply?["type"] as? String == "ok")
        let rest = try #require(moved.before.last)
        #expect(rest.phase == "idle" && rest.y == 300 && rest.indicatorVisible == true)

        // Asleep in the kernel with one thing to wake it: the hide's timer.
        var reason: String?
        #expect(waitUntil(timeout: 30) {
            reason = probe.whatMayWakeIt()
            return probe.whatMayWakeIt(timers: false) == nil && (reason?.contains("timerfd") ?? false)
        }, "\(reason ?? "asleep for good before the hide")")
        let waiting = probe.threadLooks

        // The hide: the next line, one state, the same but for `t`, `seq` and `visible`.
        let hide = try #require(client.readJSON())
        #expect(hide["type"] as? String == "state" && hide.indicatorVisible == false)
        #expect(hide.t == rest.t.map { $0 + 5_000_000 })
        #expect(hide.int("seq") == rest.int("seq").map { $0 + 1 })
        #expect(hide.y == 300 && hide.phase == "idle")

        // Then asleep for good: no timer armed, every thread waiting without a timeout.
        #expect(waitUntil(timeout: 30) {
            reason = probe.whatMayWakeIt()
            return reason == nil
        }, "\(reason ?? "")")
        let after = probe.threadLooks
        #expect(waiting.map(\.tid) == after.map(\.tid))
        // One wake-up: the one deadline of the hide, which costs what every deadline of the
        // daemon costs. The event loop wakes for its timer and asks the input thread for the
        // events stamped before it (the input barrier, docs/decisions.md), which wakes and
        // answers once; the loop may sleep while it answers (a second voluntary switch) or find
        // the answer there; then it publishes and sleeps for good. No other thread runs.
        for (before, now) in zip(waiting, after) {
            let switches = now.voluntarySwitches - before.voluntarySwitches
            if before.name.hasPrefix("NIO-ELT") {
                #expect((1...2).contains(switches), "\(before) then \(now)")
            } else if before.name == "scrolld-input" {
                #expect(switches == 1, "\(before) then \(now)")
            } else {
                #expect(switches == 0, "\(before) then \(now)")
            }
        }
        // And no further state: a ping is answered with nothing before it.
        let ping = client.linesBeforeReply(to: ["op": "ping"], id: 4)
        #expect(ping.reply?["type"] as? String == "pong")
        #expect(ping.before.isEmpty)
        daemon.stop()
    }
}
