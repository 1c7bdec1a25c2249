@testable import ScrollModel
import Testing

/// docs/design.md §22's directional lock on a touchscreen (§25: a touch drag is a drag): the
/// drag's displacement steps past the slop are held until they have travelled 10 px, then a drag
/// within 22.5° of an axis moves along it only, to the end of its fling.
///
/// The frame of `TouchTests.list` on both axes: s = (1600, 2048) px per unit, so 25 px across
/// (1/64 of the glass) and any whole number of px down are exact doubles, as the offsets are.
@Suite("Directional lock on a touchscreen")
struct TouchDirectionalLockTests {
    typealias Glass = TouchTests.Glass

    static func canvas(lock: Bool = true) -> ContainerConfiguration {
        var configuration = TouchTests.list(axes: [.horizontal, .vertical])
        configuration.gestures.directionalLock = lock
        return configuration
    }

    /// A finger down at (0.25, 0.125) over a canvas resting at (500, 1000).
    static func glass(lock: Bool = true) -> Glass {
        var glass = Glass()
        glass.add("canvas", canvas(lock: lock))
        glass.scroll(0, to: 1000, x: 500)
        glass.send(TouchTests.down(0, 0.25, 0.125))
        return glass
    }

    /// The finger `right` px across and `up` px up the frame from the down point.
    static func moved(_ t: Timestamp, right: Double, up: Double) -> ScrollEvent {
        TouchTests.motion(t, 0.25 + right / 1600, 0.125 - up / 2048)
    }

    @Test("Held until 10 px of travel, then locked to y: x stays where the drag began")
    func nearlyVerticalLocksToY() {
        var glass = Self.glass()
        // 12 px up: past the slop, u = (0, −1), displacement (0, 12 − 8) = (0, 4): 4 px travelled.
        glass.send(Self.moved(10_000, right: 0, up: 12))
        #expect(glass.offset(0) == Point(x: 500, y: 1000))
        #expect(glass.state(0).phase == .interacting)
        // 25 right, 76 up: displacement (−25, 68), a step of (−25, 64): 93 px travelled, and
        // Σ = (−25, 68) lies within 22.5° of y (25 / 68 = 0.37): locked, y at 1000 + 68.
        glass.send(Self.moved(20_000, right: 25, up: 76))
        #expect(glass.offset(0) == Point(x: 500, y: 1068))
        // However far the finger drifts sideways afterwards, x stays.
        glass.send(Self.moved(30_000, right: 50, up: 140))
        #expect(glass.offset(0) == Point(x: 500, y: 1132))
        #expect(glass.state(0).velocity.x == 0)
    }

    @Test("Beyond 22.5° both axes follow the finger 1:1 from the decision on")
    func diagonalMovesBoth() {
        var glass = Self.glass()
        glass.send(Self.moved(10_000, right: 0, up: 12))
        #expect(glass.offset(0) == Point(x: 500, y: 1000))
        // 50 right, 76 up: Σ = (−50, 68), 50 / 68 = 0.74: free, the whole displacement.
        glass.send(Self.moved(20_000, right: 50, up: 76))
        #expect(glass.offset(0) == Point(x: 450, y: 1068))
        glass.send(Self.moved(30_000, right: 75, up: 140))
        #expect(glass.offset(0) == Point(x: 425, y: 1132))
    }

    @Test("A locked flick: the lift flings along y only, and no state leaves x = 500")
    func lockedFling() {
        var glass = Self.glass()
        let start = glass.published.count
        glass.send(Self.moved(10_000, right: 0, up: 12), Self.moved(20_000, right: 25, up: 76),
                   Self.moved(30_000, right: 50, up: 140), Self.moved(40_000, right: 75, up: 204))
        glass.send(TouchTests.up(48_000))
        #expect(glass.state(0).phase == .decelerating)
        #expect(glass.state(0).velocity.x == 0 && glass.state(0).velocity.y > 0)
        glass.settle()
        #expect(glass.state(0).phase == .idle)
        #expect(glass.offset(0).y > 1196 + 100)
        #expect(glass.updates(of: 0, since: start).allSatisfy { $0.state.contentOffset.x == 500 && $0.state.velocity.x == 0 })
    }

    @Test("Without the lock the same drag moves both axes at once")
    func withoutTheLock() {
        var glass = Self.glass(lock: false)
        glass.send(Self.moved(10_000, right: 0, up: 12))
        #expect(glass.offset(0) == Point(x: 500, y: 1004))
        glass.send(Self.moved(20_000, right: 25, up: 76))
        #expect(glass.offset(0) == Point(x: 475, y: 1068))
    }
}
