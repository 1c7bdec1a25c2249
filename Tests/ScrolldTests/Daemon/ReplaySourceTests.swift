import Foundation
import Testing

@Suite("scrolld run --replay: events keep their order against timers when the loop wakes late")
struct ReplaySourceTests {
    @Test func aDaemonStoppedMidStreamCatchesUpInTimeOrder() throws {
        // 2000 wheel clicks at 1000 Hz. The wheel gesture ends 250 ms after its last click
        // (wheel_idle); the daemon is frozen (SIGSTOP) in the middle until that is past by its
        // own clock (CLOCK_MONOTONIC, which runs on while it is stopped). When it resumes, the
        // gesture's timer and the clicks stamped before it are all due: the clicks must go in
        // first, so the stream never shows the gesture ending before the last click. A longer
        // freeze (a loaded machine) only makes more of them due.
        let count = 2000
        let log = try Scrolld.wheelClickLog(count: count, v120: "120")
        // Looped, so that whenever the reader subscribes a whole pass follows it.
        let daemon = try DaemonProcess(
            config: "[physics]\nwheel_animation = \"none\"\nwheel_step = 1\nwheel_idle = 0.25\n[containers.main]\ncontentSize = \"800x100000000\"\n",
            arguments: ["--loop"], replay: log
        )
        let reader = try LineClient(path: daemon.socketPath)
        _ = reader.readJSON()
        let subscribed = try #require(reader.request(["op": "subscribe", "container": "main"], id: 1))
        // The pass after the first rest: from its y.
        var rest: [String: Any]? = subscribed.phase == "idle" ? subscribed : nil
        while rest == nil, let line = reader.readJSON() {
            if line["type"] as? String == "state", line.phase == "idle" { rest = line }
        }
        let start = try #require(rest?.y)
        var states: [[String: Any]] = []
        var frozen = false
        while let line = reader.readJSON() {
            guard line["type"] as? String == "state" else { continue }
            if states.isEmpty, line.phase == "idle" { continue }
            states.append(line)
            if !frozen, line.y > start + 500 {
                frozen = true
                kill(daemon.process.processIdentifier, SIGSTOP)
                #expect(waitUntil(timeout: 30) { daemon.probe.threadLooks.allSatisfy { $0.state == "T" } })
                // Every thread stopped (each stops when it next runs): every click it took in
                // came before this moment, so the gesture's end is due by it + 250 ms. Held
                // until the clock has passed that: a condition on the daemon's clock, not a
                // guess at how long something takes.
                let due = monotonicMicroseconds() + 250_000
                while monotonicMicroseconds() <= due { usleep(useconds_t(max(1, due - monotonicMicroseconds() + 1))) }
                kill(daemon.process.processIdentifier, SIGCONT)
            }
            if line.phase == "idle" { break }
        }
        #expect(frozen)
        let firstIdle = try #require(states.firstIndex { $0.phase == "idle" })
        // Idle comes once, after the last click, with the offset of all of them.
        #expect(states[firstIdle].y == start + Double(count))
        #expect(states[..<firstIdle].allSatisfy { $0.phase == "interacting" })
        daemon.stop()
    }
}
