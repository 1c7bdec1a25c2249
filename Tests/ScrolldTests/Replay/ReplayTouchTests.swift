import Foundation
import Testing

/// `scrolld replay LOG --container NAME` of a touchscreen's log (docs/design.md §25): where a
/// touch goes depends on the other containers' frames, so the replay of one container builds
/// them all.
@Suite("scrolld replay: touches go to the container under them, whichever one is replayed")
struct ReplayTouchTests {
    /// Two containers whose frames cover the whole glass: a touch goes to the one added last.
    static let configuration = """
        [containers.back]
        containerSize = "400x600"
        contentSize = "400x4000"
        touch_frame = { x = 0, y = 0, width = 1, height = 1 }

        [containers.front]
        containerSize = "400x600"
        contentSize = "400x4000"
        touch_frame = { x = 0, y = 0, width = 1, height = 1 }
        """

    @Test func theContainerAddedLastTakesTheFingerAndTheOtherStaysPut() throws {
        var lines = [#"{"format":"scrolld-events","version":1,"created":"2026-11-27T00:00:00Z","source":"test"}"#]
        lines.append(#"{"t":0,"dev":1,"type":"device_added","name":"glass","caps":["touch"]}"#)
        lines.append(#"{"t":1000000,"dev":1,"type":"touch_down","slot":0,"x":0.5,"y":0.75}"#)
        for k in 1...10 { lines.append(#"{"t":\#(1_000_000 + k * 16_000),"dev":1,"type":"touch_motion","slot":0,"x":0.5,"y":\#(0.75 - 0.025 * Double(k))}"#) }
        lines.append(#"{"t":1200000,"dev":1,"type":"touch_up","slot":0}"#)
        let log = try Scrolld.temporaryFile(lines.joined(separator: "\n") + "\n")
        let config = try Scrolld.temporaryFile(Self.configuration, name: "scrolld.toml")

        let front = try Scrolld.run(["replay", log, "--config", config, "--container", "front"])
        #expect(front.status == 0, "\(front.stderr)")
        // 0.25 of a 600 px frame up the glass, less the 8 px slop (docs/design.md §25).
        let lift = try #require(front.states.last { $0.t == 1_200_000 })
        expectClose(lift.y, 600 * 0.25 - 8, tolerance: 1e-9)

        let back = try Scrolld.run(["replay", log, "--config", config, "--container", "back"])
        #expect(back.status == 0, "\(back.stderr)")
        // The finger never reaches it: nothing moves it (no input routed to it, no state printed).
        #expect(back.states.allSatisfy { $0.y == 0 }, "\(back.lines.suffix(3))")
    }
}
