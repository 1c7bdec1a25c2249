import Foundation
import ScrollClient
import ScrollModel
import ScrollProtocol
import Testing

/// The Swift client's `touchFrame` and `touchSlop` (docs/design.md §25) against a real daemon
/// fed a touchscreen's finger (TouchSocketTests' log, looped).
@Suite("ScrollClient: touch_frame and touch_slop against a real scrolld")
struct ScrollClientTouchTests {
    @Test func aTouchFrameInPixelsOfTheScreenGetsTheFingerOneToOne() async throws {
        let recording = try Scrolld.temporaryFile("", name: "touch-client.scrolllog")
        let daemon = try DaemonProcess(arguments: ["--loop", "--record", recording], replay: try TouchSocketTests.touchLog())
        defer { daemon.stop() }
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        #expect(client.welcome.features.contains("touch"))
        // TouchSocketTests' frame, given as the app's pixels on a 1000 × 800 screen.
        let frame = ContainerSettings.TouchFrame.pixels(Rect(x: 200, y: 200, width: 400, height: 400), of: Size(width: 1000, height: 800))
        #expect(frame == .frame(Rect(x: 0.2, y: 0.25, width: 0.4, height: 0.5)))
        try await client.configure("glass", ContainerSettings(
            containerSize: Size(width: 400, height: 600), contentSize: Size(width: 4000, height: 8000), axes: .both,
            physics: .init(touchSlop: TouchSocketTests.slop)
        ))
        var states = client.states(of: "glass").makeAsyncIterator()
        // Subscribed (its first state is in) before the frame: the first finger that moves the
        // container is then seen from its down.
        #expect(try await states.next()?.contentOffset == .zero)
        try await client.configure("glass", ContainerSettings(touchFrame: frame))
        var moved = false
        while !moved, let state = try await states.next() { moved = state.contentOffset != .zero }
        client.close()
        daemon.stop()
        // The first state that moved is the first motion past the slop, exactly: read from the
        // session's replay, which has every state (a consumer of the live sequence more than
        // 1024 states behind, as on a loaded machine, loses the oldest).
        let replay = try Scrolld.run(["replay", recording, "--container", "glass"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let first = try #require(replay.lines.first { !$0.contains(#""contentOffset":{"x":0,"y":0}"#) && $0.contains(#""type":"state""#) })
        let want = try #require(TouchSocketTests.expectedOffsets.compactMap { $0 }.first)
        #expect(first.contains(#""phase":"interacting""#), "\(first)")
        // As text: the daemon prints the shortest round trip of each double, exactly.
        #expect(first.contains(#""contentOffset":{"x":\#(want.x),"y":\#(want.y)}"#), "\(first)")
    }

    @Test func aBadTouchFrameOrSlopIsTheDaemonsNamedErrorAndNoneRemovesTheFrame() async throws {
        let daemon = try DaemonProcess()
        defer { daemon.stop() }
        let client = try await ScrollClient.connect(socket: daemon.socketPath)
        defer { client.close() }
        await #expect(throws: ScrollClientError.daemon(
            code: .invalidValue, message: "containers.main.touch_frame.height: must be between 0.0001 and 1, got 2.0"
        )) {
            try await client.configure("main", ContainerSettings(touchFrame: .frame(Rect(x: 0, y: 0, width: 1, height: 2))))
        }
        await #expect(throws: ScrollClientError.daemon(
            code: .invalidValue, message: "containers.main.physics.touch_slop: must be between 0 and 10000, got 20000.0"
        )) {
            try await client.configure("main", ContainerSettings(physics: .init(touchSlop: 20000)))
        }
        try await client.configure("main", ContainerSettings(touchFrame: .frame(Rect(x: 0, y: 0, width: 1, height: 1))))
        try await client.configure("main", ContainerSettings(touchFrame: ContainerSettings.TouchFrame.none))
    }
}
