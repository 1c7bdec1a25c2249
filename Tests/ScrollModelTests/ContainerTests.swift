import ScrollModel
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `H^(2/3)` for a 600 px tall container: the auto wheel step.
let autoStep600 = pow(600.0, 2.0 / 3.0)

@Suite("Containers: the offset observer, wheels, drags, header, rows, axes")
struct ContainerTests {
    var noAnimation: ContainerConfiguration {
        var c = ContainerConfiguration()
        c.physics.wheelAnimation = .none
        return c
    }

    @Test func eachContainerDeclaresItsOwnNamedSpaceAndPublishesTheNegatedContentOrigin() {
        let main = ScrollContainer(name: "main")
        let side = ScrollContainer(name: "side")
        #expect(main.coordinateSpaceName != side.coordinateSpaceName)

        var insets = ContainerConfiguration()
        insets.contentInsets = EdgeInsets(top: 40, leading: 0, bottom: 10, trailing: 0)
        let inset = ScrollContainer(name: "inset", configuration: insets)
        // At rest at the top the content sits below the top inset: origin +40, offset -40.
        #expect(inset.contentOffset == Point(x: 0, y: -40))
        #expect(inset.geometry.restingRange(.vertical) == -40...19410)
    }

    @Test func theAutoWheelStepIsTheContainerHeightToTheTwoThirds() {
        #expect(abs(ScrollPhysics().wheelStep(forLength: 600) - 71.138) < 0.0005)
        var points = ScrollPhysics()
        points.wheelStep = .points(40)
        #expect(points.wheelStep(forLength: 600) == 40)
    }

    @Test func wheelWithoutAnimationJumpsByV120FractionsAndClamps() {
        var h = Harness(noAnimation)
        h.send(.wheel(1_000, y: 120))
        expectClose(h.state.contentOffset.y, autoStep600)
        h.send(.wheel(2_000, y: 30))  // a hi-res quarter detent
        expectClose(h.state.contentOffset.y, autoStep600 * 1.25)
        h.send(.wheel(3_000, y: -480))  // past the top: clamped
        #expect(h.state.contentOffset.y == 0)
        #expect(h.state.phase == .interacting)
        #expect(h.state.velocity == .zero)
    }

    @Test func wheelClampsAtTheBottomEdgeToo() {
        var config = noAnimation
        config.contentSize = Size(width: 800, height: 700)
        var h = Harness(config)
        h.send(.wheel(0, y: 120), .wheel(10_000, y: 120))
        #expect(h.state.contentOffset.y == 100)
    }

    @Test func aWheelGestureGoesIdleWheelIdleAfterItsLastEventByAOneShotTimer() {
        var h = Harness(noAnimation)
        h.send(.wheel(1_000_000, y: 120), .wheel(1_100_000, y: 120))
        #expect(h.engine.nextDeadline == 1_350_000)
        h.settle()
        #expect(h.published.count == 3)
        #expect(h.published.last?.cause == .timer)
        #expect(h.published.last?.state.time == 1_350_000)
        #expect(h.published.last?.state.phase == .idle)
        #expect(h.engine.nextDeadline == nil)
    }

    @Test func smoothWheelFollowsTheCriticallyDampedSpringAndRetargetsKeepingVelocity() {
        var h = Harness()
        h.send(.wheel(0, y: 120))
        let omega = 2 * Double.pi / 0.2
        let t1 = autoStep600
        // y(τ) = T + e^(−ωτ)(c1 + c2 τ), c1 = y0 − T, c2 = v0 + ω c1, from rest at 0.
        func y(_ tau: Double, y0: Double, v0: Double, target: Double) -> Double {
            let c1 = y0 - target, c2 = v0 + omega * c1
            return target + exp(-omega * tau) * (c1 + c2 * tau)
        }
        func v(_ tau: Double, y0: Double, v0: Double, target: Double) -> Double {
            let c1 = y0 - target, c2 = v0 + omega * c1
            return exp(-omega * tau) * (c2 - omega * (c1 + c2 * tau))
        }
        let at50 = h.sample(at: 50_000)
        expectClose(at50.contentOffset.y, y(0.05, y0: 0, v0: 0, target: t1), tolerance: 1e-9)
        expectClose(at50.velocity.y, v(0.05, y0: 0, v0: 0, target: t1), tolerance: 1e-9)
        #expect(at50.phase == .interacting)

        // A second detent while the first is running: the target moves on from the old target,
        // and the spring restarts from the current position and velocity.
        h.send(.wheel(50_000, y: 120))
        let y0 = y(0.05, y0: 0, v0: 0, target: t1), v0 = v(0.05, y0: 0, v0: 0, target: t1)
        let at100 = h.sample(at: 100_000)
        expectClose(at100.contentOffset.y, y(0.05, y0: y0, v0: v0, target: 2 * t1), tolerance: 1e-9)

        h.settle()
        let last = h.published.last!.state
        #expect(last.contentOffset.y == 2 * t1)
        #expect(last.phase == .idle)
        #expect(last.velocity == .zero)
    }

    @Test func aFingerDragMovesByScaledDeltasAndRubberBandsPastAnEdge() {
        var h = Harness()
        h.send(.finger(0, y: 30), .finger(10_000, y: 20))
        #expect(h.state.contentOffset.y == 50)
        #expect(h.state.phase == .interacting)
        // 50 px/10 ms inside the window: 20 + 30 over 0.01 s.
        #expect(h.state.velocity.y == 5000)
        h.send(.finger(20_000, y: -150))  // raw −100: 100 px past the top
        // b(100) = 100·600·0.55 / (600 + 0.55·100)
        expectClose(h.state.contentOffset.y, -100 * 600 * 0.55 / (600 + 55), tolerance: 1e-12)
    }

    @Test func withoutOverscrollADragIsClampedAtTheEdge() {
        var config = ContainerConfiguration()
        config.physics.overscroll = false
        var h = Harness(config)
        h.send(.finger(0, y: -100))
        #expect(h.state.contentOffset.y == 0)
        h.send(.finger(10_000, y: 30))  // raw is −70: still clamped
        #expect(h.state.contentOffset.y == 0)
        // The published velocity is the drag's (what a release would fling with), not the held
        // offset's: (−100 + 30) px over 10 ms (docs/protocol.md, `velocity`).
        expectClose(h.state.velocity.y, -7000, tolerance: 1e-9)
    }

    @Test func fingerScaleMultipliesDeltas() {
        var config = ContainerConfiguration()
        config.physics.fingerScale = 2.5
        var h = Harness(config)
        h.send(.finger(0, y: 10))
        #expect(h.state.contentOffset.y == 25)
    }

    @Test func aDragStartingOverscrolledResumesThroughTheInverseRubberBand() {
        var h = Harness()
        h.send(.finger(0, y: -100), .stop(10_000))
        let shown = h.sample(at: 50_000).contentOffset.y
        #expect(shown < 0)
        h.send(.finger(50_000, y: 10))
        let d = 600.0, c = 0.55
        let raw = -(-shown * d / (c * (d + shown)))  // −b⁻¹(|shown|)
        let expected = -((-(raw + 10)) * d * c / (d + c * -(raw + 10)))
        expectClose(h.state.contentOffset.y, expected, tolerance: 1e-9)
    }

    @Test func inputOnAnAxisTheContainerDoesNotScrollIsIgnored() {
        var h = Harness()
        h.send(.wheel(0, x: 120), .finger(10_000, x: 40))
        #expect(h.state.contentOffset == .zero)
        #expect(h.state.phase == .idle)
        #expect(h.engine.nextDeadline == nil)

        var both = ContainerConfiguration()
        both.axes = .both
        both.contentSize = Size(width: 3000, height: 3000)
        var h2 = Harness(both)
        h2.send(.finger(0, y: 10, x: 40))
        #expect(h2.state.contentOffset == Point(x: 40, y: 10))
    }

    @Test func theCollapsingHeaderFollowsTheOffsetFromTheTopEdge() {
        let header = HeaderConfiguration(minHeight: 50, maxHeight: 150)
        #expect(header.state(atDistanceFromTop: 0) == HeaderState(height: 150, progress: 0))
        #expect(header.state(atDistanceFromTop: 50) == HeaderState(height: 100, progress: 0.5))
        #expect(header.state(atDistanceFromTop: 400) == HeaderState(height: 50, progress: 1))
        #expect(header.state(atDistanceFromTop: -20) == HeaderState(height: 170, progress: 0))
        let rigid = HeaderConfiguration(minHeight: 50, maxHeight: 150, stretch: false)
        #expect(rigid.state(atDistanceFromTop: -20) == HeaderState(height: 150, progress: 0))
        let fixed = HeaderConfiguration(minHeight: 80, maxHeight: 80)
        #expect(fixed.state(atDistanceFromTop: 30) == HeaderState(height: 80, progress: 0))
    }

    @Test func visibleRowsNeedMoreThanTheThresholdInsideTheViewport() {
        var config = noAnimation
        config.contentSize = nil
        config.rows = RowsConfiguration(count: 100, height: 44)
        var h = Harness(config)
        // The content takes its ideal height: 100 rows of 44.
        #expect(h.state.geometry.contentSize == Size(width: 800, height: 4400))
        // Row 13 spans 572–616: 28 of 44 inside [0, 600].
        #expect(h.state.visibleRows == VisibleRows(first: 0, last: 13))
        h.send(.finger(0, y: 30))
        // Row 0 has 14 of 44 inside [30, 630], row 14 (616–660) 14 of 44.
        #expect(h.state.visibleRows == VisibleRows(first: 1, last: 13))
    }

    @Test func rowsStartBelowTheHeaderAndExplicitHeightsWork() {
        var config = noAnimation
        config.contentSize = nil
        config.header = HeaderConfiguration(minHeight: 60, maxHeight: 200)
        config.rows = RowsConfiguration(heights: .explicit([100, 500, 100, 100]))
        let container = ScrollContainer(name: "main", configuration: config)
        #expect(container.contentSize.height == 1000)
        // [0, 600]: row 0 (200–300) inside, row 1 (300–800) has 300 of 500 inside.
        #expect(container.state.visibleRows == VisibleRows(first: 0, last: 1))
        #expect(container.state.header == HeaderState(height: 200, progress: 0))
    }

    @Test func noRowIsVisibleWhenARowIsTallerThanTwiceTheViewport() {
        var config = ContainerConfiguration()
        config.rows = RowsConfiguration(heights: .explicit([2000]))
        let container = ScrollContainer(name: "main", configuration: config)
        #expect(container.state.visibleRows == VisibleRows.empty)
    }

    @Test func contentWithNoIdealSizeTakesTenAlongTheScrolledAxis() {
        var config = ContainerConfiguration()
        config.contentSize = nil
        let container = ScrollContainer(name: "main", configuration: config)
        #expect(container.contentSize == Size(width: 800, height: 10))
        #expect(container.range(.vertical) == 0...0)
    }
}
