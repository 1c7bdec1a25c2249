import ScrollModel
@testable import ScrollTranscript
import Testing

/// docs/design.md §25: `import-debug-events` reads libinput's `TOUCH_*` lines, whose `x/y` are
/// percent of a 100 × 100 screen (`%5.2f/%5.2f`), into normalized touch events.
@Suite struct DebugEventsTouchTests {
    static func events(_ lines: String...) throws -> [ScrollEvent] {
        try DebugEventsImport(parsing: lines.map { $0 + "\n" }.joined()).events
    }

    @Test func touchLinesBecomeTouchEvents() throws {
        let events = try Self.events(
            "-event6   DEVICE_ADDED            ILITEK Multi-Touch                seat0 default group3  cap:t  size 256x144mm ntouches 10 calib",
            "-event6   TOUCH_DOWN              +1.000s\t0 (0) 50.00/25.00 (128.00/36.00mm)",
            " event6   TOUCH_FRAME             +1.000s\t",
            " event6   TOUCH_MOTION            +1.016s\t0 (0)  5.00/ 7.50 (12.80/10.80mm)",
            " event6   TOUCH_UP                +1.032s\t0 (0)",
            " event6   TOUCH_DOWN              +2.000s\t1 (1) 12.50/100.00 (32.00/144.00mm)",
            " event6   TOUCH_CANCEL            +2.010s\t1 (1)"
        )
        #expect(events == [
            ScrollEvent(time: 0, device: 1, kind: .deviceAdded(name: "ILITEK Multi-Touch", capabilities: [.touch])),
            ScrollEvent(time: 1_000_000, device: 1, kind: .touchDown(slot: 0, at: Point(x: 0.5, y: 0.25))),
            ScrollEvent(time: 1_016_000, device: 1, kind: .touchMotion(slot: 0, at: Point(x: 0.05, y: 0.075))),
            ScrollEvent(time: 1_032_000, device: 1, kind: .touchUp(slot: 0)),
            ScrollEvent(time: 2_000_000, device: 1, kind: .touchDown(slot: 1, at: Point(x: 0.125, y: 1))),
            ScrollEvent(time: 2_010_000, device: 1, kind: .touchCancel(slot: 1)),
        ])
    }

    @Test func touchLinesThatDoNotReadAreErrors() {
        for line in [
            "-event6   TOUCH_DOWN              +1.000s\t0 (0) 50.00 (128.00/36.00mm)",
            "-event6   TOUCH_DOWN              +1.000s\tleft (0) 50.00/25.00 (128.00/36.00mm)",
            "-event6   TOUCH_MOTION            +1.000s\t0 (0) 50.00/x (128.00/36.00mm)",
            "-event6   TOUCH_MOTION            +1.000s\t0 (0) 50.00/900.00 (128.00/36.00mm)",
        ] {
            #expect(throws: DebugEventsError.self, "\(line)") { _ = try Self.events(line, " event6   TOUCH_UP                +1.100s\t0 (0)") }
        }
    }
}
