import Foundation
import Testing

/// docs/design.md §18 through the real `scrolld replay`: logs with two devices under different
/// `[input.devices.NAME]` rules, exact values from the formulas.
@Suite("Input shaping per device: scrolld replay")
struct InputShapingReplayTests {
    let header = #"{"format":"scrolld-events","version":1,"created":"2026-11-25T12:00:00Z","source":"test"}"#
    static let mouse = #"{"t":1,"dev":1,"type":"device_added","name":"Logitech USB Optical Mouse","caps":["wheel"]}"#
    static let touchpad = #"{"t":1,"dev":2,"type":"device_added","name":"SynPS/2 Synaptics TouchPad","caps":["finger","hold"]}"#

    func log(_ lines: [String]) throws -> String {
        try Scrolld.temporaryFile(([header] + lines).joined(separator: "\n") + "\n")
    }

    func wheel(_ t: Int, dev: Int = 1, x: Int? = nil, y: Int? = nil) -> String {
        let axes = [x.map { "\"x\":\($0)" }, y.map { "\"y\":\($0)" }].compactMap { $0 }.joined(separator: ",")
        return #"{"t":\#(t),"dev":\#(dev),"type":"wheel","v120":{\#(axes)}}"#
    }

    func finger(_ t: Int, dev: Int = 2, x: Double? = nil, y: Double? = nil, type: String = "finger") -> String {
        let axes = [x.map { "\"x\":\($0)" }, y.map { "\"y\":\($0)" }].compactMap { $0 }.joined(separator: ",")
        return #"{"t":\#(t),"dev":\#(dev),"type":"\#(type)","delta":{\#(axes)}}"#
    }

    /// Every state the replay prints, or (`eventsOnly`) just those published at the input
    /// events' times: the wheel's idle timer publishes a state of its own 0.25 s after the last
    /// click, which the tests of event values leave out.
    func replay(_ lines: [String], _ options: [String], eventsOnly: Bool = false) throws -> [[String: Any]] {
        let result = try Scrolld.run(["replay", try log(lines)] + options)
        #expect(result.status == 0, "\(result.stderr)")
        guard eventsOnly else { return result.states }
        let times = Set(lines.filter { $0.contains("\"dev\"") && !$0.contains("device_") }.compactMap { line -> Int64? in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else { return nil }
            return (object["t"] as? NSNumber)?.int64Value
        })
        return result.states.filter { times.contains($0.t ?? -1) }
    }

    func x(_ state: [String: Any]) -> Double { state.number("contentOffset", "x") ?? .nan }

    // MARK: Speed

    /// `speed` multiplies wheel distances and finger deltas, `speed_x`/`speed_y` per axis, and
    /// rules override key by key: the mouse matches "Mouse" (speed 4, speed_x 3) and then "USB"
    /// (speed 1.5), so it runs at x 3, y 1.5; the touchpad at x 1 (default), y 0.5.
    @Test func speedPerAxisOnWheelAndFingerInput() throws {
        let states = try replay([
            Self.mouse, Self.touchpad,
            wheel(1_000_000, x: 120, y: 120),
            wheel(1_100_000, y: 30),
            finger(2_000_000, x: 10, y: 20),
            finger(2_010_000, x: -4, y: 6),
            finger(3_000_000, x: 0, y: 0),
            finger(4_000_000, dev: 3, y: 10, type: "continuous"),
        ], [
            "--axes", "both", "--content-size", "4000x4000",
            "--set", "physics.wheel_animation=none", "--set", "physics.wheel_step=40",
            "--set", "input.devices.mouse.match=Mouse", "--set", "input.devices.mouse.speed=4",
            "--set", "input.devices.mouse.speed_x=3",
            "--set", "input.devices.usb.match=USB", "--set", "input.devices.usb.speed=1.5",
            "--set", "input.devices.touchpad.match=TouchPad", "--set", "input.devices.touchpad.speed_y=0.5",
        ], eventsOnly: true)
        // v120 × speed / 120 × wheel_step (40).
        let x1 = (120 * 3.0) / 120 * 40
        let y1 = (120 * 1.5) / 120 * 40
        let y2 = y1 + (30 * 1.5) / 120 * 40
        // finger_scale 1: r += delta × speed.
        let x3 = x1 + 10 * 1.0, y3 = y2 + 20 * 0.5
        let x4 = x3 - 4 * 1.0, y4 = y3 + 6 * 0.5
        #expect(states.map(x) == [x1, x1, x3, x4, x4, x4])
        // Device 3 was never announced: no rule applies to it.
        #expect(states.map(\.y) == [y1, y2, y3, y4, y4, y4 + 10])
        #expect(x1 == 120 && y1 == 60 && y2 == 75)
    }

    // MARK: Acceleration

    /// `wheel_acceleration` a = 3 (window 100 ms): a click 30 ms after one in the same direction
    /// is multiplied by 1 + (a − 1)·0.7; 150 ms apart, or in the other direction, it is not; a
    /// touchpad in the same log is not accelerated and keeps its own speed.
    @Test func accelerationForClicks30msApartOnly() throws {
        let states = try replay([
            Self.mouse, Self.touchpad,
            wheel(1_000_000, y: 120),
            wheel(1_030_000, y: 120),
            wheel(1_060_000, y: 120),
            wheel(1_210_000, y: 120),
            wheel(1_240_000, y: -120),
            wheel(1_270_000, y: -120),
            finger(3_000_000, y: 10),
            finger(3_030_000, y: 10),
            finger(4_000_000, y: 0),
        ], [
            "--set", "physics.wheel_animation=none", "--set", "physics.wheel_step=40",
            "--set", "input.devices.mouse.match=Mouse", "--set", "input.devices.mouse.wheel_acceleration=3",
            "--set", "input.devices.touchpad.match=TouchPad", "--set", "input.devices.touchpad.speed=2",
        ], eventsOnly: true)
        let factor = 1 + (3.0 - 1) * (1 - 30.0 / 100)
        #expect(factor == 1 + 2 * 0.7)
        var y = 0.0
        var expected: [Double] = []
        for (v120, f) in [(120.0, 1.0), (120, factor), (120, factor), (120, 1), (-120, 1), (-120, factor)] {
            y += (v120 * 1 * f) / 120 * 40
            expected.append(y)
        }
        expected += [y + 20, y + 40, y + 40]
        #expect(states.map(\.y) == expected)
    }

    /// The window is configurable: 30 ms apart with a 60 ms window gives 1 + (a − 1)·0.5.
    @Test func accelerationWindowIsConfigurable() throws {
        let states = try replay([
            Self.mouse, wheel(1_000_000, y: 120), wheel(1_030_000, y: 120), wheel(1_090_000, y: 120),
        ], [
            "--set", "physics.wheel_animation=none", "--set", "physics.wheel_step=40",
            "--set", "input.devices.mouse.match=Mouse", "--set", "input.devices.mouse.wheel_acceleration=2",
            "--set", "input.devices.mouse.wheel_acceleration_window_ms=60",
        ], eventsOnly: true)
        let factor = 1 + (2.0 - 1) * (1 - 30.0 / 60)
        #expect(states.map(\.y) == [40, 40 + (120 * factor) / 120 * 40, 80 + (120 * factor) / 120 * 40])
    }

    // MARK: Momentum

    /// "Touchpad flings, trackball never" in one container: the trackball's release (momentum
    /// false) goes idle where it is; the touchpad's identical drag flings.
    @Test func momentumFalseOnOneDeviceWhileTheOtherFlings() throws {
        let trackball = #"{"t":1,"dev":3,"type":"device_added","name":"Kensington Expert Wireless TB Mouse Trackball","caps":["continuous"]}"#
        let states = try replay([
            Self.touchpad, trackball,
            finger(1_000_000, dev: 3, y: 10, type: "continuous"),
            finger(1_010_000, dev: 3, y: 10, type: "continuous"),
            finger(1_020_000, dev: 3, y: 10, type: "continuous"),
            finger(1_030_000, dev: 3, y: 0, type: "continuous"),
            finger(2_000_000, y: 10),
            finger(2_010_000, y: 10),
            finger(2_020_000, y: 10),
            finger(2_030_000, y: 0),
        ], ["--set", "input.devices.trackball.match=Trackball", "--set", "input.devices.trackball.momentum=false"])
        // The trackball: three moves and an idle release at 30, nothing after it.
        #expect(states.prefix(4).map(\.y) == [10, 20, 30, 30])
        #expect(states.prefix(4).map(\.phase) == ["interacting", "interacting", "interacting", "idle"])
        #expect(states[3].vy == 0)
        // Then only the scroll indicator's hide, 500 ms after the rest (docs/design.md §22).
        #expect(states[4].t == 1_530_000)
        #expect(states[4].y == 30 && states[4].indicatorVisible == false)
        #expect(states[5].t == 2_000_000)
        // The touchpad: the same drag flings (30 px in 30 ms: 1000 px/s) and decelerates.
        #expect(states[5...8].map(\.y) == [40, 50, 60, 60])
        #expect(states[8].phase == "decelerating")
        expectClose(states[8].vy, 1000, tolerance: 1e-6)
        let last = try #require(states.last)
        #expect(last.phase == "idle")
        #expect(last.y > 60 + 400)
        #expect(states.count > 20)
    }

    /// Without momentum a release still bounces back from beyond an edge.
    @Test func momentumFalseStillBouncesBack() throws {
        let trackball = #"{"t":1,"dev":3,"type":"device_added","name":"Trackball","caps":["continuous"]}"#
        let states = try replay([
            trackball,
            finger(1_000_000, dev: 3, y: -30, type: "continuous"),
            finger(1_010_000, dev: 3, y: -30, type: "continuous"),
            finger(1_020_000, dev: 3, y: 0, type: "continuous"),
        ], ["--set", "input.devices.trackball.match=Trackball", "--set", "input.devices.trackball.momentum=false"])
        #expect(states[2].y < 0)
        #expect(states[2].phase == "decelerating")
        #expect(states.last?.y == 0)
        #expect(states.last?.phase == "idle")
    }

    // MARK: Detent

    /// A knob (`detent = true`) on a container of 44-px rows: twelve hi-res events of v120 = 30
    /// move exactly three rows; a change of direction restarts the count; steps go to the next
    /// row top from the current target; with `wheel_animation = "none"` every state rests on a
    /// row top. The touchpad in the same log (speed 2) moves freely.
    @Test func detentKnobStepsRowByRow() throws {
        let knob = #"{"t":1,"dev":4,"type":"device_added","name":"Griffin PowerMate","caps":["wheel"]}"#
        var lines = [knob, Self.touchpad]
        var t = 1_000_000
        func click(_ v120: Int) { lines.append(wheel(t, dev: 4, y: v120)); t += 10_000 }
        for _ in 0..<12 { click(30) }     // three rows: 44, 88, 132 at the 4th, 8th, 12th
        for _ in 0..<3 { click(30) }      // 90 counted, no step
        for _ in 0..<4 { click(-30) }     // the count restarts: one step back, at the 4th
        lines.append(finger(2_000_000, y: 10))   // the touchpad: + 10 × 2
        lines.append(finger(3_000_000, y: 0))
        t = 4_000_000
        for _ in 0..<4 { click(30) }      // from 108: the next row top is 132
        for _ in 0..<2 { click(-60) }     // two half steps back: one step, to 88
        let states = try replay(lines, [
            "--rows", "100x44", "--set", "physics.wheel_animation=none",
            "--set", "input.devices.knob.match=PowerMate", "--set", "input.devices.knob.detent=true",
            "--set", "input.devices.touchpad.match=TouchPad", "--set", "input.devices.touchpad.speed=2",
        ], eventsOnly: true)
        let knobStates = Array(states[0..<19]) + Array(states[21...])
        let ys = knobStates.map(\.y)
        #expect(Array(ys[0..<12]) == [0, 0, 0, 44, 44, 44, 44, 88, 88, 88, 88, 132])
        #expect(Array(ys[12..<15]) == [132, 132, 132])
        #expect(Array(ys[15..<19]) == [132, 132, 132, 88])
        #expect(states[19].y == 108)
        #expect(Array(ys[19...]) == [108, 108, 108, 132, 132, 88])
        // Every step the knob takes lands on a row top (from 108, where the touchpad left it,
        // the fractions move nothing).
        let steps = zip(knobStates, knobStates.dropFirst()).filter { $0.y != $1.y }.map { $1.y }
        #expect(steps == [44, 88, 132, 88, 108, 132, 88])  // 108: the touchpad's move between
        #expect(steps.filter { $0 != 108 }.allSatisfy { $0.truncatingRemainder(dividingBy: 44) == 0 })
        #expect(knobStates.allSatisfy { $0.number("velocity", "y") == 0 })
    }

    /// A smooth detent step springs to the row top and rests exactly on it.
    @Test func smoothDetentRestsOnARowTop() throws {
        let knob = #"{"t":1,"dev":4,"type":"device_added","name":"Griffin PowerMate","caps":["wheel"]}"#
        let lines = [knob] + (0..<8).map { wheel(1_000_000 + $0 * 10_000, dev: 4, y: 30) }
        let states = try replay(lines, [
            "--rows", "100x44",
            "--set", "input.devices.knob.match=PowerMate", "--set", "input.devices.knob.detent=true",
        ])
        let last = try #require(states.last)
        #expect(last.y == 88)
        #expect(last.phase == "idle")
        #expect(states.allSatisfy { $0.y >= 0 && $0.y <= 88 })
    }

    /// Without rows a detent step is `wheel_step` px; fractions move nothing.
    @Test func detentWithoutRowsStepsByTheWheelStep() throws {
        let knob = #"{"t":1,"dev":4,"type":"device_added","name":"Griffin PowerMate","caps":["wheel"]}"#
        let lines = [knob] + (0..<5).map { wheel(1_000_000 + $0 * 10_000, dev: 4, y: 30) }
        let states = try replay(lines, [
            "--set", "physics.wheel_animation=none", "--set", "physics.wheel_step=40",
            "--set", "input.devices.knob.match=PowerMate", "--set", "input.devices.knob.detent=true",
        ], eventsOnly: true)
        #expect(states.map(\.y) == [0, 0, 0, 40, 40])
        #expect(states.map(\.phase) == ["idle", "idle", "idle", "interacting", "interacting"])
    }

    // MARK: Reload

    /// A recorded reload (docs/design.md §17) that changes a device's speed applies from its next
    /// event.
    @Test func aReloadChangesSpeedFromTheNextEvent() throws {
        let reload = #"{"t":1500000,"type":"request","client":0,"request":{"op":"reload","configuration":{"physics.wheel_animation":"none","physics.wheel_step":40,"input.devices.mouse.match":"Mouse","input.devices.mouse.speed":3}}}"#
        let states = try replay([
            Self.mouse, wheel(1_000_000, y: 120), reload, wheel(2_000_000, y: 120),
        ], [
            "--set", "physics.wheel_animation=none", "--set", "physics.wheel_step=40",
            "--set", "input.devices.mouse.match=Mouse", "--set", "input.devices.mouse.speed=2",
        ], eventsOnly: true)
        #expect(states.map(\.y) == [80, 80 + 120])
    }

    // MARK: Validation

    @Test(arguments: [
        ("input.devices.mouse.speed=0", "input.devices.mouse.speed"),
        ("input.devices.mouse.speed=-1", "input.devices.mouse.speed"),
        ("input.devices.mouse.speed_x=nan", "input.devices.mouse.speed_x"),
        ("input.devices.mouse.wheel_acceleration=0.5", "input.devices.mouse.wheel_acceleration"),
        ("input.devices.mouse.wheel_acceleration_window_ms=0", "input.devices.mouse.wheel_acceleration_window_ms"),
        ("input.devices.mouse.detent=1", "input.devices.mouse.detent"),
    ])
    func outOfRangeValuesAreRefusedNamingTheKey(assignment: String, key: String) throws {
        let result = try Scrolld.run(["replay", try log([wheel(1_000_000, y: 120)]), "--set", assignment])
        #expect(result.status != 0)
        #expect(result.stderr.contains(key), "\(result.stderr)")
    }
}
