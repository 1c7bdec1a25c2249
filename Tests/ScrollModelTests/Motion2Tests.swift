import ScrollModel
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The motions of docs/design.md §5 beyond drag and fling, each against the formula written out
/// here.
@Suite("Edges, profiles, header snap, scroll targets, springs, animated geometry")
struct EdgeAndProfileTests {
    /// Scrolls to `start` at once, then drags 3 × `step` px 50 ms apart and stops 50 ms later:
    /// a release at `start + 3·step` with velocity `step / 0.05` px/s... measured over 150 ms.
    static func fling(_ h: inout Harness, from start: Double, step: Double) {
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: start), animation: .none, at: 0) }
        h.send(.finger(1_000_000, y: step), .finger(1_050_000, y: step), .finger(1_100_000, y: step), .stop(1_150_000))
    }

    @Test func aFlingPastTheBottomHandsOverToTheBounceAtTheCrossingTime() {
        var config = ContainerConfiguration()
        config.contentSize = Size(width: 800, height: 1500)  // hi = 900
        var h = Harness(config)
        Self.fling(&h, from: 500, step: 50)  // released at 650 with +1000 px/s
        let k = 1000 * log(0.998)
        let crossing = log(1 + k * (900 - 650) / 1000) / k
        let edgeVelocity = 1000 * exp(k * crossing)
        let release: Timestamp = 1_150_000
        // Just before the crossing: still the deceleration curve.
        let before = h.sample(at: release + Timestamp(((crossing - 0.01) * 1e6).rounded()))
        expectClose(before.contentOffset.y, 650 + 1000 * (exp(k * (Double(before.time - release) / 1e6)) - 1) / k, tolerance: 1e-9)
        // After it: the bounce from the edge with the crossing velocity (critically damped, ω = 10).
        let t = release + Timestamp(((crossing + 0.1) * 1e6).rounded())
        let tau = Double(t - release) / 1e6 - crossing
        let after = h.sample(at: t)
        expectClose(after.contentOffset.y, 900 + exp(-10 * tau) * edgeVelocity * tau, tolerance: 1e-9)
        #expect(after.phase == .decelerating)
        h.settle()
        #expect(h.published.last!.state.contentOffset.y == 900)
    }

    @Test func withoutOverscrollAFlingStopsAtTheEdge() {
        var config = ContainerConfiguration()
        config.contentSize = Size(width: 800, height: 1500)
        config.physics.overscroll = false
        var h = Harness(config)
        Self.fling(&h, from: 500, step: 50)
        h.settle()
        let states = h.published.map(\.state)
        #expect(states.allSatisfy { $0.contentOffset.y <= 900 })
        #expect(states.last!.contentOffset.y == 900)
        #expect(states.last!.phase == .idle)
    }

    @Test func gtkDeceleratesWithFrictionAndLimitsOvershoot() {
        var config = ContainerConfiguration()
        config.physics = ScrollPhysics(profile: .gtk)
        config.physics.fingerScale = 1
        var h = Harness(config)
        Self.fling(&h, from: 500, step: 50)  // 650, +1000 px/s
        // y0 + (v0/f)(1 − e^(−fτ)), f = 4.
        expectClose(h.sample(at: 1_650_000).contentOffset.y, 650 + 250 * (1 - exp(-2)), tolerance: 1e-9)
        h.settle()
        let last = h.published.last!.state
        #expect(last.contentOffset.y == 900)  // y∞ = 650 + 1000/4
        // It ended at the first frame slower than 0.1 px/s: 1000 e^(−4τ) < 0.1.
        let endTau = Double(last.time - 1_150_000) / 1e6
        #expect(1000 * exp(-4 * endTau) < 0.1)
        #expect(1000 * exp(-4 * (endTau - 1.0 / 120)) >= 0.1 * 0.99)

        var drag = Harness(config)
        drag.send(.finger(0, y: -300))
        #expect(drag.state.contentOffset.y == -100)  // linear, limited to 100 px
    }

    @Test func gtkFlingsOvershootAtMost50px() {
        var config = ContainerConfiguration()
        config.physics = ScrollPhysics(profile: .gtk)
        config.physics.fingerScale = 1
        config.contentSize = Size(width: 800, height: 1500)  // hi = 900
        var h = Harness(config)
        Self.fling(&h, from: 700, step: 60)  // 880 at +1200 px/s, y∞ = 1180
        h.settle()
        let states = h.published.map(\.state)
        #expect(states.map(\.contentOffset.y).max()! <= 950)
        #expect(states.map(\.contentOffset.y).max()! > 930)
        #expect(states.last!.contentOffset.y == 900)
    }

    @Test func theHeaderSnapsOpenOrClosedWithTheStrictHalfRule() {
        var config = ContainerConfiguration()
        config.header = HeaderConfiguration(minHeight: 50, maxHeight: 150)  // R = 100
        var h = Harness(config)
        // A slow drag to u = 60, released without momentum.
        h.send(.finger(0, y: 30), .finger(200_000, y: 30), .stop(400_000))
        #expect(h.state.phase == .animating)
        // Δ = 40, duration min(600, (40/150 + 1) × 150) = 190 ms, curve 1 − (1 − s)².
        let duration = (40.0 / 150 + 1) * 150 / 1000
        let at = h.sample(at: 400_000 + Timestamp((duration / 2 * 1e6).rounded()))
        expectClose(at.contentOffset.y, 60 + 40 * 0.75, tolerance: 1e-9)
        expectClose(at.header!.height, 150 - 90, tolerance: 1e-9)
        h.settle()
        #expect(h.published.last!.state.contentOffset.y == 100)
        #expect(h.published.last!.state.header == HeaderState(height: 50, progress: 1))

        // Exactly half way expands.
        var half = Harness(config)
        half.send(.finger(0, y: 25), .finger(200_000, y: 25), .stop(400_000))
        half.settle()
        #expect(half.published.last!.state.contentOffset.y == 0)
    }

    @Test func aDragInterruptsTheHeaderSnap() {
        var config = ContainerConfiguration()
        config.header = HeaderConfiguration(minHeight: 50, maxHeight: 150)
        var h = Harness(config)
        h.send(.finger(0, y: 30), .finger(200_000, y: 30), .stop(400_000))
        let y = h.sample(at: 450_000).contentOffset.y
        h.send(.finger(450_000, y: 1))
        #expect(h.state.phase == .interacting)
        expectClose(h.state.contentOffset.y, y + 1, tolerance: 1e-9)
    }

    @Test func aHoldFreezesTheHeaderSnapAndLiftingSnapsAgain() {
        var config = ContainerConfiguration()
        config.header = HeaderConfiguration(minHeight: 50, maxHeight: 150)
        var h = Harness(config)
        h.send(.finger(0, y: 30), .finger(200_000, y: 30), .stop(400_000))
        let y = h.sample(at: 450_000).contentOffset.y
        h.send(ScrollEvent(time: 450_000, device: 2, kind: .holdBegin(fingers: 2)))
        #expect(h.state.phase == .tracking)
        #expect(h.state.contentOffset.y == y)
        #expect(h.engine.nextDeadline == nil)
        // Lifting without scrolling: at rest half way again, so it snaps again (past half: closed).
        h.send(ScrollEvent(time: 900_000, device: 2, kind: .holdEnd(fingers: 2, cancelled: false)))
        #expect(h.state.phase == .animating)
        h.settle()
        #expect(h.published.last!.state.contentOffset.y == 100)
    }

    @Test func pagingAimsAtTheNearestPageAtMostOnePageAway() {
        var config = ContainerConfiguration()
        config.scrollTarget = .paging
        var slow = Harness(config)
        slow.send(.finger(0, y: 100), .finger(300_000, y: 100), .stop(600_000))  // y∞ = 200: page 0
        #expect(slow.state.phase == .decelerating)
        slow.settle()
        #expect(slow.published.last!.state.contentOffset.y == 0)

        var fast = Harness(config)
        fast.send(.finger(0, y: 200), .finger(50_000, y: 200), .stop(100_000))  // y∞ ≫ 600
        // The smooth spring from the current position and velocity (4000 px/s) to page 1.
        let omega = 4 * Double.pi
        let c1 = 400.0 - 600, c2 = 4000 + omega * c1
        expectClose(fast.sample(at: 200_000).contentOffset.y, 600 + exp(-omega * 0.1) * (c1 + c2 * 0.1), tolerance: 1e-9)
        fast.settle()
        #expect(fast.published.last!.state.contentOffset.y == 600)
    }

    @Test func rowTargetsAimAtTheNearestRowTop() {
        var config = ContainerConfiguration(contentSize: nil)
        config.rows = RowsConfiguration(count: 100, height: 44)
        config.scrollTarget = .rows
        var h = Harness(config)
        h.send(.finger(0, y: 50), .finger(300_000, y: 50), .stop(600_000))  // at 100: row 2 starts at 88
        h.settle()
        #expect(h.published.last!.state.contentOffset.y == 88)
    }

    @Test func springsInEveryDampingRegime() {
        // Under-damped (snappy: ζ = 0.85) and over-damped (bounce −0.5: ζ = 2).
        for (spring, zeta) in [(Spring.snappy, 0.85), (Spring.bouncy, 0.7), (Spring(duration: 0.5, bounce: -0.5), 2.0)] {
            let w0 = 2 * Double.pi / 0.5
            #expect(abs(spring.dampingRatio - zeta) < 1e-12)
            var h = Harness()
            _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 100), animation: .spring(spring), at: 0) }
            let tau = 0.1
            let expected: Double
            if zeta < 1 {
                let wd = w0 * (1 - zeta * zeta).squareRoot()
                let c1 = -100.0, c2 = zeta * w0 * c1 / wd
                expected = 100 + exp(-zeta * w0 * tau) * (c1 * cos(wd * tau) + c2 * sin(wd * tau))
            } else {
                let r1 = -w0 * (zeta - (zeta * zeta - 1).squareRoot()), r2 = -w0 * (zeta + (zeta * zeta - 1).squareRoot())
                let a = (0 - r2 * -100.0) / (r1 - r2)
                expected = 100 + a * exp(r1 * tau) + (-100 - a) * exp(r2 * tau)
            }
            expectClose(h.sample(at: 100_000).contentOffset.y, expected, tolerance: 1e-9)
            h.settle()
            let ys = h.published.map(\.state.contentOffset.y)
            #expect(ys.last == 100)
            // Only an under-damped spring overshoots its target.
            #expect((ys.max()! > 100) == (zeta < 1))
        }
    }

    @Test func scrollByMovesFromTheCurrentOffsetAndClamps() {
        var h = Harness()
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(by: AxisValues(y: 250), animation: .none, at: 0) }
        #expect(h.state.contentOffset.y == 250)
        _ = h.engine.update(container: 0, at: 1) { $0.scroll(by: AxisValues(y: -1000), animation: .none, at: 1) }
        #expect(h.state.contentOffset.y == 0)
        _ = h.engine.update(container: 0, at: 2) { $0.scroll(to: AxisValues(y: 1e9), animation: .none, at: 2) }
        #expect(h.state.contentOffset.y == 19400)
    }

    @Test func aCancelledHoldFollowedByScrollingIsANormalDrag() {
        var h = Harness()
        h.send(ScrollEvent(time: 0, device: 2, kind: .holdBegin(fingers: 2)))
        h.send(ScrollEvent(time: 30_000, device: 2, kind: .holdEnd(fingers: 2, cancelled: true)))
        #expect(h.state.phase == .idle)
        h.send(.finger(30_000, y: 12))
        #expect(h.state.phase == .interacting)
        #expect(h.state.contentOffset.y == 12)
    }

    @Test func aGrowingContainerResolvesRowsFromTheAnimatedGeometryFrameByFrame() {
        var config = ContainerConfiguration(containerSize: Size(width: 800, height: 300), contentSize: nil)
        config.rows = RowsConfiguration(count: 100, height: 44)
        var h = Harness(config)
        #expect(h.state.visibleRows == VisibleRows(first: 0, last: 6))
        var grown = config
        grown.containerSize = Size(width: 800, height: 600)
        _ = h.engine.update(container: 0, at: 1_000_000) { $0.configure(grown, animation: .smooth, at: 1_000_000) }
        h.settle()
        let frames = h.published.map(\.state)
        let lasts = frames.compactMap { $0.visibleRows?.last }
        let heights = frames.map(\.geometry.containerSize.height)
        #expect(lasts.first == 6 || lasts.first == 7)
        #expect(lasts.last == 13)
        // It rises one row at a time, never jumping.
        #expect(zip(lasts, lasts.dropFirst()).allSatisfy { $1 >= $0 && $1 - $0 <= 1 })
        #expect(Set(lasts).count >= 7)
        // The height follows the smooth spring: 600 − 300 e^(−ωτ)(1 + ωτ), ω = 4π.
        let tau = Double(frames[5].time - 1_000_000) / 1e6
        expectClose(heights[5], 600 - 300 * exp(-4 * Double.pi * tau) * (1 + 4 * Double.pi * tau), tolerance: 1e-9)
        #expect(heights.last == 600)
    }

    @Test func aShrinkingContentClampsTheOffsetAsItAnimates() {
        var h = Harness(ContainerConfiguration(contentSize: Size(width: 800, height: 2000)))
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 1400), animation: .none, at: 0) }
        var smaller = ContainerConfiguration(contentSize: Size(width: 800, height: 1000))
        smaller.physics = ScrollPhysics()
        _ = h.engine.update(container: 0, at: 1_000_000) { $0.configure(smaller, animation: .smooth, at: 1_000_000) }
        h.settle()
        let states = h.published.map(\.state)
        #expect(states.allSatisfy { $0.contentOffset.y <= $0.geometry.restingRange(.vertical).upperBound })
        #expect(states.last!.contentOffset.y == 400)
        #expect(Set(states.map(\.contentOffset.y)).count > 10)
    }
}

@Suite("Wheel gesture endings")
struct WheelEndingTests {
    @Test func aSlowWheelSpringEndsTheGestureAtItsSettleFrameNotAtTheTimer() {
        var config = ContainerConfiguration()
        config.physics.wheelDuration = 1.0
        var h = Harness(config)
        h.send(.wheel(1_000_000, y: 120))
        h.settle()
        let last = h.published.last!
        #expect(last.cause == .frame)
        #expect(last.state.phase == .idle)
        // Nothing became idle at the 250 ms timer: the spring was still running.
        #expect(h.published.filter { $0.state.phase == .idle }.count == 1)
        #expect(last.state.time > 1_250_000)
        #expect(h.published.dropLast().allSatisfy { $0.state.phase == .interacting })
    }

    @Test func pagingSnapsWhenAWheelGestureEnds() {
        var config = ContainerConfiguration()
        config.scrollTarget = .paging
        config.physics.wheelAnimation = .none
        config.physics.wheelStep = .points(400)
        var h = Harness(config)
        h.send(.wheel(0, y: 120))  // 400: nearer page 1 (600) than page 0
        h.run(until: 250_000)
        #expect(h.state.phase == .decelerating)
        h.settle()
        #expect(h.published.last!.state.contentOffset.y == 600)
        #expect(h.published.last!.state.phase == .idle)
    }
}
