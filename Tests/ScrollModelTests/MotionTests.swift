import ScrollModel
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("Motion after release, springs, frames")
struct MotionTests {
    @Test func releaseVelocityAndIOSDecelerationInClosedForm() {
        var h = Harness()
        let update = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 500), animation: .none, at: 0) }
        #expect(update.contentOffset.y == 500)
        h.send(.finger(1_000_000, y: 50), .finger(1_050_000, y: 50), .finger(1_100_000, y: 50), .stop(1_150_000))
        #expect(h.state.phase == .decelerating)
        #expect(h.state.velocity.y == 1000)
        expectClose(h.sample(at: 1_250_000).contentOffset.y, 650 + 90.626)
        expectClose(h.sample(at: 1_650_000).contentOffset.y, 650 + 315.928)
        h.settle()
        let last = h.published.last!.state
        #expect(last.phase == .idle)
        #expect(last.contentOffset.y == 650 - 1000 / (1000 * log(0.998)))
        expectClose(last.contentOffset.y, 650 + 499.500)
    }

    @Test func releaseOverscrolledBouncesBackFromTheShownPosition() {
        var h = Harness()
        // Raw −b⁻¹(50) shows exactly −50.
        let raw = 50 * 600 / (0.55 * (600 - 50))
        h.send(.finger(0, y: -raw), .stop(100_000))
        expectClose(h.state.contentOffset.y, -50, tolerance: 1e-9)
        #expect(h.state.phase == .decelerating)
        expectClose(h.sample(at: 200_000).contentOffset.y, -36.788)
        expectClose(h.sample(at: 400_000).contentOffset.y, -9.957)
        h.settle()
        #expect(h.published.last!.state.contentOffset.y == 0)
        #expect(h.published.last!.state.phase == .idle)
    }

    @Test func smoothScrollToFollowsSwiftUISpring() {
        var h = Harness()
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 100), animation: .smooth, at: 0) }
        #expect(h.state.phase == .animating)
        expectClose(h.sample(at: 100_000).contentOffset.y, 35.774)
        expectClose(h.sample(at: 500_000).contentOffset.y, 98.640)
    }

    @Test func framesRunOnTheGridOfTheMotionsStartAndStopWhenIdle() {
        var h = Harness()
        _ = h.engine.update(container: 0, at: 1_000_000) { $0.scroll(to: AxisValues(y: 100), animation: .smooth, at: 1_000_000) }
        h.settle()
        let frames = h.published.filter { $0.cause == .frame }.map(\.state.time)
        #expect(frames.prefix(3) == [1_008_333, 1_016_667, 1_025_000])
        #expect(frames.count == h.published.count)
        #expect(h.published.last!.state.phase == .idle)
        #expect(h.engine.nextDeadline == nil)
    }

    @Test func aHoldFreezesMotionAndItsEndRestsOrBounces() {
        var h = Harness()
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 100), animation: .smooth, at: 0) }
        let frozen = h.sample(at: 100_000).contentOffset.y
        h.send(ScrollEvent(time: 100_000, device: 2, kind: .holdBegin(fingers: 2)))
        #expect(h.state.phase == .tracking)
        #expect(h.state.contentOffset.y == frozen)
        #expect(h.engine.nextDeadline == nil)
        h.send(ScrollEvent(time: 300_000, device: 2, kind: .holdEnd(fingers: 2, cancelled: false)))
        #expect(h.state.phase == .idle)
        #expect(h.state.contentOffset.y == frozen)
    }
}
