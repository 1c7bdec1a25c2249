@testable import ScrollModel
import Testing

/// docs/design.md §21 "Header modes": the `enterAlways` (quick return) header's height over a
/// scripted sequence of offsets, and the snap after a gesture in both modes.
@Suite("App bars: enterAlways header")
struct EnterAlwaysHeaderTests {
    static func configuration(mode: HeaderMode, snap: Bool = false) -> ContainerConfiguration {
        ContainerConfiguration(header: HeaderConfiguration(minHeight: 20, maxHeight: 100, snap: snap, mode: mode))
    }

    /// The rubber band of §5 for the default 600 px container: `b(x) = x·d·c / (d + c·x)`.
    static func band(_ x: Double) -> Double { x * 600 * 0.55 / (600 + 0.55 * x) }

    @Test func heightFollowsEveryChangeOfTheOffset() {
        var h = Harness(Self.configuration(mode: .enterAlways))
        #expect(h.state.header == HeaderState(height: 100, progress: 0))
        // Each step: the finger's delta, then the offset and h₁ = max(P(y₁), clamp(h₀ − Δ, 20, 100)).
        let script: [(delta: Double, offset: Double, height: Double)] = [
            (50, 50, 50),        // down near the top: P = 50, h₀ − Δ = 50
            (150, 200, 20),      // on: collapsed
            (1000, 1200, 20),    // far into the content
            (-30, 1170, 50),     // up a little, far from the top: revealed at once
            (-10, 1160, 60),
            (25, 1185, 35),      // on again: hides as fast
            (-100, 1085, 100),   // up by more than it has left: whole
            (10, 1095, 90),
            (-1095, 0, 100),     // at the top
        ]
        var t: Timestamp = 0
        for step in script {
            t += 10_000
            h.send(.finger(t, y: step.delta))
            #expect(h.state.contentOffset.y == step.offset)
            #expect(h.state.header?.height == step.height, "after \(step.delta)")
            #expect(h.state.header?.progress == (100 - step.height) / 80)
        }
        // Past the top in rubber band: P is clamped to M, so the header is whole and never
        // stretches (a pinned header with `stretch` would be 100 + 50.38).
        h.send(.finger(t + 10_000, y: -100))
        expectClose(h.state.contentOffset.y, -Self.band(100), tolerance: 1e-9)
        #expect(h.state.header?.height == 100)
        // To the bottom (hi = 20000 − 600 = 19400) and past it: collapsed.
        h.send(.finger(t + 20_000, y: 19_500))
        #expect(h.state.contentOffset.y == 19_400)
        #expect(h.state.header?.height == 20)
        h.send(.finger(t + 30_000, y: 100))
        expectClose(h.state.contentOffset.y, 19_400 + Self.band(100), tolerance: 1e-9)
        #expect(h.state.header?.height == 20)
        // Coming back inside the band reveals it by as much as the shown offset moved.
        h.send(.finger(t + 40_000, y: -60))
        expectClose(h.state.contentOffset.y, 19_400 + Self.band(40), tolerance: 1e-9)
        expectClose(h.state.header!.height, 20 + Self.band(100) - Self.band(40), tolerance: 1e-9)
        // Released there, it bounces back to hi: the shown offset moves back by band(40), and the
        // header is revealed by as much (the formula takes every change of the shown offset).
        h.send(.stop(t + 240_000))
        h.settle()
        #expect(h.state.contentOffset.y == 19_400)
        expectClose(h.state.header!.height, 20 + Self.band(100), tolerance: 1e-9)
    }

    @Test func aPinnedHeaderIsAFunctionOfTheOffset() {
        var h = Harness(Self.configuration(mode: .pinned))
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 1200), animation: .none, at: 0) }
        h.send(.finger(10_000, y: -30))
        #expect(h.state.header?.height == 20)
        h.send(.finger(20_000, y: -1170))
        #expect(h.state.header?.height == 100)
        h.send(.finger(30_000, y: -100))
        expectClose(h.state.header!.height, 100 + Self.band(100), tolerance: 1e-9)
    }

    @Test func programmaticScrollsAndSamplesFollowToo() {
        var h = Harness(Self.configuration(mode: .enterAlways))
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 5000), animation: .none, at: 0) }
        #expect(h.state.header?.height == 20)
        _ = h.engine.update(container: 0, at: 10_000) { $0.scroll(by: AxisValues(y: -45), animation: .none, at: 10_000) }
        #expect(h.state.header?.height == 65)
        // A read between frames works on a copy: it does not move the header's memory.
        _ = h.engine.update(container: 0, at: 20_000) { $0.scroll(by: AxisValues(y: 1000), animation: .smooth, at: 20_000) }
        _ = h.engine.sampled(container: 0, at: 100_000)
        h.settle()
        #expect(h.state.contentOffset.y == 5955)
        #expect(h.state.header?.height == 20)
    }

    /// The snap after a gesture: far in the content an `enterAlways` header caught part way
    /// moves the content by its remaining travel, collapsing when more than half collapsed.
    @Test func enterAlwaysSnapsByHowFarItIsCollapsed() {
        var h = Harness(Self.configuration(mode: .enterAlways, snap: true))
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 1200), animation: .none, at: 0) }
        // Up 30: h = 50, collapsed by 50 > 40: collapses, the content moving on by h − m = 30.
        h.send(.finger(10_000, y: -30), .stop(210_000))
        #expect(h.state.phase == .animating)
        // §5's duration min(600, (|Δ|/M + 1) × 150) ms = 195 ms on 1 − (1 − s)².
        let s = 0.1 / 0.195
        expectClose(h.sample(at: 310_000).contentOffset.y, 1170 + 30 * (1 - (1 - s) * (1 - s)), tolerance: 1e-9)
        h.settle()
        #expect(h.state.contentOffset.y == 1200)
        // The height follows the frames' steps, which add up to 30 to the last bit or so.
        expectClose(h.state.header!.height, 20, tolerance: 1e-9)
        #expect(h.state.phase == .idle)
        // Up 50: h = 70, collapsed by 30 ≤ 40: expands, the content moving back by M − h = 30.
        h.send(.finger(2_000_000, y: -50), .stop(2_200_000))
        expectClose(h.state.header!.height, 70, tolerance: 1e-9)
        h.settle()
        #expect(h.state.contentOffset.y == 1120)
        expectClose(h.state.header!.height, 100, tolerance: 1e-9)
    }

    @Test func enterAlwaysExactlyHalfWayExpands() {
        var h = Harness(Self.configuration(mode: .enterAlways, snap: true))
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 1200), animation: .none, at: 0) }
        h.send(.finger(10_000, y: -40), .stop(210_000))
        #expect(h.state.header?.height == 60)
        h.settle()
        #expect(h.state.contentOffset.y == 1120)
        expectClose(h.state.header!.height, 100, tolerance: 1e-9)
    }

    @Test func pinnedSnapsByTheDistanceFromTheTop() {
        var h = Harness(Self.configuration(mode: .pinned, snap: true))
        h.send(.finger(0, y: 30), .stop(200_000))
        h.settle()
        #expect(h.state.contentOffset.y == 0)
        h.send(.finger(1_000_000, y: 50), .stop(1_200_000))
        h.settle()
        #expect(h.state.contentOffset.y == 80)
        #expect(h.state.header?.height == 20)
        // Far in the content a scroll back does not reveal a pinned header, so nothing snaps.
        _ = h.engine.update(container: 0, at: 2_000_000) { $0.scroll(to: AxisValues(y: 1200), animation: .none, at: 2_000_000) }
        h.send(.finger(2_010_000, y: -30), .stop(2_210_000))
        #expect(h.state.phase == .idle)
        #expect(h.state.contentOffset.y == 1170)
    }

    /// Rows inserted above keep the content in place on screen (scroll anchoring): the offset
    /// moves, but nobody scrolled, so the header stays as it was.
    @Test func scrollAnchoringIsNotAScroll() {
        let header = HeaderConfiguration(minHeight: 20, maxHeight: 100, snap: false, mode: .enterAlways)
        let configuration = ContainerConfiguration(contentSize: nil, header: header, rows: RowsConfiguration(count: 100, height: 50))
        var h = Harness(configuration)
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 2000), animation: .none, at: 0) }
        h.send(.finger(10_000, y: -30), .stop(210_000))
        #expect(h.state.header?.height == 50)
        var grown = configuration
        grown.rows = RowsConfiguration(count: 105, height: 50)
        h.configure(grown, edit: .insert(at: 0, count: 5, height: 50), at: 1_000_000)
        #expect(h.state.contentOffset.y == 2220)
        #expect(h.state.header?.height == 50)
    }

    @Test func switchingModesStartsFromThePinnedHeight() {
        var h = Harness(Self.configuration(mode: .pinned))
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 30), animation: .none, at: 0) }
        h.configure(Self.configuration(mode: .enterAlways), at: 10_000)
        #expect(h.state.header?.height == 70)
        h.send(.finger(20_000, y: 1000), .finger(30_000, y: -10))
        #expect(h.state.header?.height == 30)
        h.configure(Self.configuration(mode: .pinned), at: 40_000)
        #expect(h.state.header?.height == 20)
    }
}
