import ScrollModel
import ScrollProtocol
import ScrollSession
import Testing

/// A `pause` in the middle of a gesture (docs/design.md §19): input no longer reaches the
/// container, so the device's scroll stop never would; the pause ends the gesture as a device
/// that vanishes mid-gesture does (its scroll stop, at the time of the pause), instead of
/// leaving the container `interacting` for good.
@Suite("A pause during a gesture")
struct PauseDuringGestureTests {
    static let pad = 2

    /// A session whose `main` is being dragged by a touchpad: 20 motions of 10 px, 5 ms apart,
    /// the last at 1.095 s, no scroll stop yet.
    static func dragging() throws -> Session {
        var session = try Session(configuration: .defaults, at: 0)
        _ = try session.apply(.input(ScrollEvent(time: 1_000_000, device: pad, kind: .deviceAdded(name: "pad", capabilities: [.finger]))))
        for i in 0..<20 {
            _ = try session.apply(.input(ScrollEvent(time: Timestamp(1_000_000 + i * 5000), device: pad, kind: .finger(AxisValues(y: 10)))))
        }
        return session
    }

    static func state(_ session: Session, at time: Timestamp) throws -> ScrollState {
        session.state(of: try #require(session.index(of: "main")), at: time)
    }

    @Test func aDragPausedEndsAsItsDeviceGoneWould() throws {
        let stop: Timestamp = 1_100_000
        var paused = try Self.dragging()
        #expect(try Self.state(paused, at: stop).phase == .interacting)
        let published = try paused.apply(.request(.pause(container: "main"), client: 1, at: stop))
        var stopped = try Self.dragging()
        _ = try stopped.apply(.input(ScrollEvent(time: stop, device: Self.pad, kind: .deviceRemoved)))
        // At the pause, and through the fling that follows to its rest: the same.
        let flung = try #require(published.last?.state)
        #expect(flung.phase == .decelerating)
        for time in [stop, stop + 100_000, stop + 1_000_000, stop + 10_000_000] {
            let a = try Self.state(paused, at: time), b = try Self.state(stopped, at: time)
            #expect(a.phase == b.phase && a.contentOffset == b.contentOffset && a.velocity == b.velocity, "at \(time): \(a) against \(b)")
        }
        _ = try paused.apply(.advance(to: stop + 10_000_000))
        #expect(try Self.state(paused, at: stop + 10_000_000).phase == .idle)
        // Resumed, it stays at rest where the fling ended.
        let resumed = try paused.apply(.request(.resume(container: "main"), client: 1, at: stop + 10_000_000))
        #expect(resumed.last?.state.phase == .idle)
    }
}
