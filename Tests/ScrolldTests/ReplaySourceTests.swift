import Foundation
import Testing

@Suite("scrolld run --replay: events keep their order against timers when the loop wakes late")
struct ReplaySourceTests {
    @Test func aDaemonStoppedMidStreamCatchesUpInTimeOrder() throws {
        // 2000 wheel clicks at 1000 Hz. The wheel gesture ends 250 ms after its last click; the
        // daemon is frozen (SIGSTOP) for 600 ms in the middle. When it resumes, the gesture's
        // timer and the clicks stamped before it are all due: the clicks must go in first, so
        // the stream never shows the gesture ending before the last click.
        let count = 2000
        let log = try Scrolld.wheelClickLog(count: count, v120: "120")
        let daemon = try DaemonProcess(config: "[physics]\nwheel_animation = \"none\"\nwheel_step = 1\n[containers.main]\ncontentSize = \"800x100000\"\n", replay: log)
        let reader = try LineClient(path: daemon.socketPath)
        _ = reader.readJSON()
        _ = try #require(reader.request(["op": "subscribe", "container": "main"], id: 1))
        var states: [[String: Any]] = []
        var frozen = false
        while let line = reader.readJSON(timeout: 5) {
            guard line["type"] as? String == "state" else { continue }
            states.append(line)
            if !frozen, line.y > 500 {
                frozen = true
                kill(daemon.process.processIdentifier, SIGSTOP)
                usleep(600_000)
                kill(daemon.process.processIdentifier, SIGCONT)
            }
            if line.phase == "idle", states.count > 1 { break }
        }
        #expect(frozen)
        let firstIdle = try #require(states.firstIndex { $0.phase == "idle" })
        // Idle comes once, after the last click, with the offset of all of them.
        #expect(states[firstIdle].y == Double(count))
        #expect(states[..<firstIdle].allSatisfy { $0.phase == "interacting" })
        daemon.stop()
    }
}
