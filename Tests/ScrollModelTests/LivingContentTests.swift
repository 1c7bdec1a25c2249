import ScrollModel
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/design.md §19 "Geometry changes never break motion" and "Header snap follows gestures
/// only", with the cases docs/physics.md works through.
@Suite("Living content: configure during motion, snap after gestures only")
struct LivingContentTests {
    /// A fling released at 0 with exactly 2000 px/s at t = 250 ms: a drag 200 px up past the top,
    /// then 200 px back down in the last 100 ms (the velocity window holds only those).
    static let flingAt2000: [ScrollEvent] = [.finger(0, y: -200), .finger(150_000, y: 100), .finger(250_000, y: 100), .stop(250_000)]

    func content(_ height: Double) -> ContainerConfiguration {
        ContainerConfiguration(contentSize: Size(width: 800, height: height))
    }

    @Test func aFlingIntoGrownContentRunsToItsOwnEndPoint() {
        var h = Harness(content(1200))
        for event in Self.flingAt2000 { h.send(event) }
        #expect(h.state.contentOffset.y == 0)
        #expect(h.state.velocity.y == 2000)
        #expect(h.state.phase == .decelerating)
        let before = h.sample(at: 350_000)
        let done = h.configure(content(5000), at: 350_000)
        #expect(done)
        // Nothing jumps at the change: the same position and velocity, still decelerating.
        #expect(h.state.contentOffset.y == before.contentOffset.y)
        #expect(h.state.velocity.y == before.velocity.y)
        #expect(h.state.phase == .decelerating)
        h.settle()
        let end = Deceleration.ios(from: 0, velocity: 2000, rate: 0.998).restingPoint
        #expect(end == 0 - 2000 / (1000 * log(0.998)))
        expectClose(end, 999.0, tolerance: 0.001)
        let states = h.published.map(\.state)
        #expect(states.last!.contentOffset.y == end)
        #expect(states.last!.phase == .idle)
        // No bounce at the old bottom (600): it never passes its end and never turns back.
        let ys = states.drop { $0.time < 250_000 }.map(\.contentOffset.y)
        #expect(zip(ys, ys.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(states.filter { $0.phase == .idle }.count == 1)
    }

    @Test func contentShrinkingBelowAFlingBouncesBackFromWhereItIs() {
        var h = Harness(content(5000))
        for event in Self.flingAt2000 { h.send(event) }
        _ = h.sample(at: 750_000)
        h.configure(content(1000), at: 750_000)
        // At τ = 0.5 the fling is at 632.3 with 735 px/s, past the new bottom (400): the bounce
        // starts there with that velocity, towards 400.
        let (y0, v0) = Deceleration.ios(from: 0, velocity: 2000, rate: 0.998).sample(at: 0.5)
        #expect(y0 > 600 && y0 < 700)
        #expect(h.state.contentOffset.y == y0)
        #expect(h.state.phase == .decelerating)
        let c1 = y0 - 400, c2 = v0 + 10 * c1
        expectClose(h.sample(at: 850_000).contentOffset.y, 400 + exp(-1.0) * (c1 + c2 * 0.1), tolerance: 1e-9)
        h.settle()
        #expect(h.published.last!.state.contentOffset.y == 400)
        #expect(h.published.filter { $0.state.phase == .idle }.count == 1)
    }

    @Test func contentShrinkingAheadOfAFlingHandsOverAtTheNewEdge() {
        var h = Harness(content(5000))
        for event in Self.flingAt2000 { h.send(event) }
        h.configure(content(1000), at: 350_000)
        // The fling (at 181 now) meets the new bottom, 400, at τe and bounces from there.
        let fling = Deceleration.ios(from: 0, velocity: 2000, rate: 0.998)
        let crossing = fling.crossingTime(of: 400)!
        let vEdge = fling.velocity(at: crossing)
        let t = 250_000 + Timestamp((crossing + 0.05) * 1e6)
        let tau = Double(t - 250_000) / 1e6 - crossing
        expectClose(h.sample(at: t).contentOffset.y, 400 + exp(-10 * tau) * (vEdge * tau), tolerance: 1e-9)
        h.settle()
        #expect(h.published.last!.state.contentOffset.y == 400)
    }

    @Test func aDragGoesOnThroughAConfigureWithTheSameReleaseVelocity() {
        let events: [ScrollEvent] = (0..<10).map { .finger(Timestamp($0) * 10_000, y: 12) } + [.stop(100_000)]
        var plain = Harness(content(5000))
        var changed = Harness(content(5000))
        for event in events {
            plain.send(event)
            changed.send(event)
            if event.time == 40_000 {
                let done = changed.configure(content(30_000), at: 45_000)
                #expect(done)
                // No intermediate idle, the raw position kept.
                #expect(changed.state.phase == .interacting)
                #expect(changed.state.contentOffset.y == 60)
            }
        }
        #expect(changed.state.velocity.y == plain.state.velocity.y)
        #expect(changed.state.velocity.y > 1000)
        plain.settle()
        changed.settle()
        #expect(changed.published.last!.state.contentOffset.y == plain.published.last!.state.contentOffset.y)
        #expect(!changed.published.dropLast().contains { $0.state.phase == .idle })
    }

    @Test func aDragPastTheNewEdgeIsRubberBandedFromItsRawPosition() {
        var h = Harness(content(2000))
        h.send(.finger(0, y: 1000), .finger(10_000, y: 300))  // raw 1300, inside [0, 1400]
        h.configure(content(1500), at: 20_000)  // hi 900: 400 past it
        let band = RubberBand(coefficient: 0.55, dimension: 600).band(400)
        #expect(h.state.contentOffset.y == 900 + band)
        h.send(.finger(30_000, y: 100))
        #expect(h.state.contentOffset.y == 900 + RubberBand(coefficient: 0.55, dimension: 600).band(500))
    }

    @Test func aProgrammaticSpringKeepsItsTargetClampedToTheNewRange() throws {
        var grown = Harness(content(2360))
        let done = try grown.scroll(to: ScrollPosition(y: 3000), animation: .smooth, at: 0)
        #expect(done)
        // It aimed at hi = 1760 (3000 clamped); content that grows keeps that target.
        grown.configure(content(5240), at: 100_000)
        #expect(grown.state.phase == .animating)
        grown.settle()
        #expect(grown.published.last!.state.contentOffset.y == 1760)

        var shrunk = Harness()
        _ = try? shrunk.scroll(to: ScrollPosition(y: 3000), animation: .smooth, at: 0)
        let now = shrunk.sample(at: 100_000)
        shrunk.configure(content(2000), at: 100_000)
        let retargeted = SpringCurve(from: now.contentOffset.y, velocity: now.velocity.y, target: 1400, spring: .smooth)
        expectClose(shrunk.sample(at: 150_000).contentOffset.y, retargeted.position(at: 0.05), tolerance: 1e-9)
        shrunk.settle()
        #expect(shrunk.published.last!.state.contentOffset.y == 1400)
        #expect(shrunk.published.dropLast().allSatisfy { $0.state.phase == .animating })
    }

    @Test func aWheelSpringKeepsGoingAndItsTargetIsClamped() {
        var h = Harness(content(2000))
        h.send(.wheel(0, y: 120 * 20))  // target clamp(20 detents) = 1400
        h.configure(content(1000), at: 50_000)  // hi 400
        #expect(h.state.phase == .interacting)
        h.settle()
        #expect(h.published.last!.state.contentOffset.y == 400)
        #expect(h.published.map(\.state.contentOffset.y).allSatisfy { $0 <= 1400 })
    }

    @Test func onlyAnOffsetAtRestIsClampedAndAnEqualConfigureDoesNothing() {
        var h = Harness(content(2000))
        _ = try? h.scroll(to: ScrollPosition(y: 1200), at: 0)
        let count = h.published.count
        let done = h.configure(content(2000), at: 1_000_000)
        #expect(!done)
        #expect(h.published.count == count)
        #expect(h.container.time == 0)
        let clamped = h.configure(content(1500), at: 1_000_000)
        #expect(clamped)
        #expect(h.state.contentOffset.y == 900)
        #expect(h.state.phase == .idle)
        #expect(h.container.isMoving == false)
    }

    @Test func aHeaderRestsExactlyWhereAProgrammaticScrollTakesIt() throws {
        var config = ContainerConfiguration()
        config.header = HeaderConfiguration(minHeight: 64, maxHeight: 200)
        for (target, animation) in [(50.0, ScrollAnimation.none), (100, .none), (50, .smooth), (100, .smooth)] {
            var h = Harness(config)
            try h.scroll(to: ScrollPosition(y: target), animation: animation, at: 0)
            h.settle()
            #expect(h.state.contentOffset.y == target)
            #expect(h.state.phase == .idle)
        }
        // A gesture still snaps: released slowly at u = 50 (< 136 / 2), the header expands.
        var gesture = Harness(config)
        gesture.send(.finger(0, y: 25), .finger(300_000, y: 25), .stop(600_000))
        gesture.settle()
        #expect(gesture.state.contentOffset.y == 0)
        // A scrollTo during the snap takes over and rests where asked.
        var interrupted = Harness(config)
        interrupted.send(.finger(0, y: 25), .finger(300_000, y: 25), .stop(600_000))
        #expect(interrupted.state.phase == .animating)
        try interrupted.scroll(to: ScrollPosition(y: 100), at: 650_000)
        interrupted.settle()
        #expect(interrupted.state.contentOffset.y == 100)
    }

    @Test func aConfigureThatClampsIntoTheHeaderRangeDoesNotSnap() throws {
        var config = ContainerConfiguration()
        config.header = HeaderConfiguration(minHeight: 64, maxHeight: 200)
        var h = Harness(config)
        try h.scroll(to: ScrollPosition(y: 5000), at: 0)
        var shorter = config
        shorter.contentSize = Size(width: 800, height: 650)  // hi 50: below half the header's 136
        h.configure(shorter, at: 1_000_000)
        h.settle()
        #expect(h.state.contentOffset.y == 50)
        #expect(h.container.isMoving == false)
    }

    @Test func aFlingThatEndsInTheHeaderRangeStillSnapsAfterAConfigure() {
        var config = ContainerConfiguration()
        config.header = HeaderConfiguration(minHeight: 64, maxHeight: 200)
        var h = Harness(config)
        // Released at 10 with 100 px/s: y∞ = 59.95, inside (0, 136) and below its half.
        h.send(.finger(200_000, y: 5), .finger(250_000, y: 5), .stop(300_000))
        #expect(h.state.phase == .decelerating)
        var wider = config
        wider.containerSize = Size(width: 900, height: 600)
        h.configure(wider, at: 320_000)
        h.settle()
        #expect(h.state.contentOffset.y == 0)
    }
}
