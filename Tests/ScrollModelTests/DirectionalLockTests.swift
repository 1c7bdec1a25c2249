@testable import ScrollModel
import Testing

/// docs/design.md §22 "Directional lock": decided once at 10 px of travel, within 22.5° of an axis
/// the drag and its fling move along that axis only.
@Suite("Directional lock")
struct DirectionalLockTests {
    static func canvas(lock: Bool = true) -> ContainerConfiguration {
        var configuration = ContainerConfiguration(contentSize: Size(width: 4000, height: 8000), axes: [.horizontal, .vertical])
        configuration.gestures.directionalLock = lock
        return configuration
    }

    /// 21.8° from vertical (2 : 5, under tan 22.5° = 0.41421…): the first 7 px move nothing, the
    /// 14 px reached by the second event decide a vertical lock, and what was held moves along y.
    @Test func aDragWithin22Point5DegreesOfAnAxisLocksToItAtTenPixels() {
        var h = Harness(Self.canvas())
        h.send(.finger(0, y: 5, x: 2))
        #expect(h.state.contentOffset == Point(x: 0, y: 0))
        #expect(h.state.phase == .interacting)
        h.send(.finger(10_000, y: 5, x: 2))
        #expect(h.state.contentOffset == Point(x: 0, y: 10))
        h.send(.finger(20_000, y: 5, x: 2))
        #expect(h.state.contentOffset == Point(x: 0, y: 15))
        #expect(h.state.velocity.x == 0)
    }

    /// 23.2° (2.25 : 5.25, a ratio of 0.4286 over tan 22.5°): both axes move, from the decision on.
    @Test func aDragBeyond22Point5DegreesMovesBothAxes() {
        var h = Harness(Self.canvas())
        h.send(.finger(0, y: 5.25, x: 2.25))
        #expect(h.state.contentOffset == Point(x: 0, y: 0))
        h.send(.finger(10_000, y: 5.25, x: 2.25))
        #expect(h.state.contentOffset == Point(x: 4.5, y: 10.5))
        h.send(.finger(20_000, y: 5.25, x: 2.25))
        #expect(h.state.contentOffset == Point(x: 6.75, y: 15.75))
    }

    /// A nearly horizontal drag locks to x; the lock lasts until the gesture ends, whatever the
    /// later deltas do, and the next gesture decides afresh.
    @Test func theLockLastsUntilTheGestureEnds() {
        var h = Harness(Self.canvas())
        h.send(.finger(0, y: 1, x: 9), .finger(10_000, y: 1, x: 9))
        #expect(h.state.contentOffset == Point(x: 18, y: 0))
        h.send(.finger(20_000, y: 30, x: 0))
        #expect(h.state.contentOffset == Point(x: 18, y: 0))
        h.send(.stop(30_000))
        h.settle()
        let rest = h.state.contentOffset
        h.send(.finger(10_000_000, y: 8, x: 0), .finger(10_010_000, y: 8, x: 0))
        #expect(h.state.contentOffset == Point(x: rest.x, y: rest.y + 16))
    }

    /// A locked fling moves one axis only: no published state ever leaves x = 0.
    @Test func aLockedFlingMovesOneAxisOnly() {
        var h = Harness(Self.canvas())
        for i in 0..<6 { h.send(.finger(Timestamp(i) * 10_000, y: 20, x: 6)) }
        h.send(.stop(60_000))
        #expect(h.state.phase == .decelerating)
        h.settle()
        #expect(h.published.allSatisfy { $0.state.contentOffset.x == 0 && $0.state.velocity.x == 0 })
        #expect(h.state.contentOffset.y > 120 + 100)
        #expect(h.state.phase == .idle)
    }

    /// A diagonal start (45°) moves both axes, and its fling carries on along both.
    @Test func aDiagonalStartMovesBoth() {
        var h = Harness(Self.canvas())
        h.send(.finger(0, y: 5, x: 5))
        // 10 px of travel at once: decided on the first event.
        #expect(h.state.contentOffset == Point(x: 5, y: 5))
        for i in 1..<6 { h.send(.finger(Timestamp(i) * 10_000, y: 20, x: 20)) }
        h.send(.stop(60_000))
        h.settle()
        #expect(h.state.contentOffset.x > 105 + 100)
        #expect(h.state.contentOffset.y == h.state.contentOffset.x)
    }

    /// Without the lock (the default) the same nearly vertical drag drifts sideways at once; a
    /// one-axis container is never held back.
    @Test func withoutTheLockOrOnOneAxisNothingIsHeld() {
        var free = Harness(Self.canvas(lock: false))
        free.send(.finger(0, y: 5, x: 2))
        #expect(free.state.contentOffset == Point(x: 2, y: 5))
        var vertical = ContainerConfiguration()
        vertical.gestures.directionalLock = true
        var list = Harness(vertical)
        list.send(.finger(0, y: 5, x: 2))
        #expect(list.state.contentOffset == Point(x: 0, y: 5))
    }

    /// The rule itself, on both sides of tan 22.5° and on either axis.
    @Test func theDecisionRule() {
        #expect(DirectionalLock.decide(Point(x: 4, y: 10)) == .locked(.vertical))
        #expect(DirectionalLock.decide(Point(x: -10, y: 4)) == .locked(.horizontal))
        #expect(DirectionalLock.decide(Point(x: 4.5, y: -10.5)) == .free)
        #expect(DirectionalLock.decide(Point(x: 10 * DirectionalLock.tangent, y: 10)) == .locked(.vertical))
        #expect(DirectionalLock.decide(Point(x: 10 * DirectionalLock.tangent + 1e-9, y: 10)) == .free)
    }
}
