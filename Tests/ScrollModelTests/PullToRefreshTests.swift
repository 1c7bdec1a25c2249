@testable import ScrollModel
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/design.md §21 "Pull to refresh": threshold d = 80, height r = 60 on the default container
/// (600 px high, content 20000, lo = 0).
@Suite("App bars: pull to refresh")
struct PullToRefreshTests {
    static let configuration = ContainerConfiguration(refresh: RefreshConfiguration(threshold: 80, height: 60))

    /// §5's rubber band for a 600 px container.
    static func band(_ x: Double) -> Double { x * 600 * 0.55 / (600 + 0.55 * x) }

    /// §5's bounce (k = 100, ω = 10) from `y0` at rest towards `edge`, τ s later.
    static func bounce(from y0: Double, to edge: Double, at tau: Double) -> Double {
        let c1 = y0 - edge
        return edge + exp(-10 * tau) * (c1 + 10 * c1 * tau)
    }

    static func continuous(_ t: Timestamp, y: Double) -> ScrollEvent {
        ScrollEvent(time: t, device: 3, kind: .continuous(AxisValues(x: nil, y: y)))
    }

    /// Pulled 200 px raw (shown −92.96, beyond −80) and released: refreshing, to lo − r = −60.
    @Test func aFingerPulledPastTheThresholdStartsARefreshAndRestsAtLoMinusR() {
        var h = Harness(Self.configuration)
        #expect(h.state.refreshing == false)
        h.send(.finger(0, y: -200))
        #expect(h.state.refreshing == false)
        let shown = -Self.band(200)
        expectClose(h.state.contentOffset.y, shown, tolerance: 1e-9)
        h.send(.stop(200_000))
        #expect(h.state.refreshing == true)
        #expect(h.state.phase == .decelerating)
        expectClose(h.sample(at: 300_000).contentOffset.y, Self.bounce(from: shown, to: -60, at: 0.1), tolerance: 1e-9)
        h.settle()
        #expect(h.state.contentOffset.y == -60)
        #expect(h.state.phase == .idle)
        #expect(h.state.refreshing == true)
        #expect(h.container.value(of: .refreshing, in: h.state) == .bool(true))
    }

    @Test func aContinuousDragStartsOneToo() {
        var h = Harness(Self.configuration)
        h.send(Self.continuous(0, y: -100), Self.continuous(10_000, y: -100), Self.continuous(210_000, y: 0))
        #expect(h.state.refreshing == true)
        h.settle()
        #expect(h.state.contentOffset.y == -60)
    }

    @Test func belowTheThresholdItBouncesBackToLo() {
        var h = Harness(Self.configuration)
        // Raw 150 shows −72.53: short of −80.
        h.send(.finger(0, y: -150), .stop(200_000))
        expectClose(h.state.contentOffset.y, -Self.band(150), tolerance: 1e-9)
        #expect(h.state.refreshing == false)
        h.settle()
        #expect(h.state.contentOffset.y == 0)
        #expect(h.state.refreshing == false)
    }

    @Test func wheelsNeverStartOne() {
        var h = Harness(Self.configuration)
        h.send(.wheel(0, y: -1200), .wheel(10_000, y: -1200))
        h.settle()
        #expect(h.state.contentOffset.y == 0)
        #expect(h.state.refreshing == false)
        #expect(h.published.allSatisfy { $0.state.contentOffset.y >= 0 && $0.state.refreshing == false })
    }

    @Test func noRefreshConfiguredNoRefreshingInTheState() {
        var h = Harness()
        h.send(.finger(0, y: -300), .stop(200_000))
        h.settle()
        #expect(h.state.refreshing == nil)
        #expect(h.state.contentOffset.y == 0)
        var container = h.container
        let again = container.beginRefresh(at: 1_000_000)
        #expect(!again)
    }

    /// While refreshing, lo − r is the top of the resting range: into the content and back.
    @Test func scrollingInAndBackWhileRefreshing() throws {
        var h = Harness(Self.configuration)
        h.send(.finger(0, y: -200), .stop(200_000))
        h.settle()
        #expect(h.state.contentOffset.y == -60)
        // Into the content: a drag from −60 (inside the range, so raw = −60) by 500.
        h.send(.finger(2_000_000, y: 500), .stop(2_200_000))
        #expect(h.state.contentOffset.y == 440)
        #expect(h.state.phase == .idle)
        // Back past the top: rubber band beyond −60 now, and the bounce goes back to −60.
        h.send(.finger(3_000_000, y: -600))
        expectClose(h.state.contentOffset.y, -60 - Self.band(100), tolerance: 1e-9)
        h.send(.stop(3_200_000))
        expectClose(h.sample(at: 3_300_000).contentOffset.y, Self.bounce(from: -60 - Self.band(100), to: -60, at: 0.1), tolerance: 1e-9)
        h.settle()
        #expect(h.state.contentOffset.y == -60)
        #expect(h.state.refreshing == true)
        // Programmatic scrolls clamp to [lo − r, hi].
        try h.scroll(to: ScrollPosition(y: -500), at: 4_000_000)
        #expect(h.state.contentOffset.y == -60)
        try h.scroll(to: ScrollPosition(y: 300), at: 4_100_000)
        try h.scroll(to: ScrollPosition(edge: .top), at: 4_200_000)
        #expect(h.state.contentOffset.y == -60)
    }

    @Test func endRefreshAtRestSpringsBackToLo() {
        var h = Harness(Self.configuration)
        h.send(.finger(0, y: -200), .stop(200_000))
        h.settle()
        var changed = false
        _ = h.engine.update(container: 0, at: 5_000_000) { changed = $0.endRefresh(at: 5_000_000) }
        #expect(changed)
        #expect(h.state.refreshing == false)
        #expect(h.state.phase == .decelerating)
        expectClose(h.sample(at: 5_100_000).contentOffset.y, Self.bounce(from: -60, to: 0, at: 0.1), tolerance: 1e-9)
        h.settle()
        #expect(h.state.contentOffset.y == 0)
        #expect(h.state.phase == .idle)
        // Ending again changes nothing.
        var container = h.container
        let again = container.endRefresh(at: 9_000_000)
        #expect(!again)
    }

    @Test func endRefreshWhileABounceRunsHeadsForLo() {
        var h = Harness(Self.configuration)
        h.send(.finger(0, y: -200), .stop(200_000))
        h.run(until: 250_000)
        let before = h.sample(at: 250_000).contentOffset.y
        _ = h.engine.update(container: 0, at: 250_000) { $0.endRefresh(at: 250_000) }
        #expect(h.state.contentOffset.y == before)
        h.settle()
        #expect(h.state.contentOffset.y == 0)
        #expect(h.state.refreshing == false)
    }

    /// endRefresh during a drag: the content stays where the finger holds it, and the release
    /// bounces back to lo.
    @Test func endRefreshWhileADragIsOn() {
        var h = Harness(Self.configuration)
        h.send(.finger(0, y: -200), .stop(200_000))
        h.settle()
        // A new drag from −60 pulls 40 further: −60 − band(40).
        h.send(.finger(2_000_000, y: -40))
        let held = -60 - Self.band(40)
        expectClose(h.state.contentOffset.y, held, tolerance: 1e-9)
        _ = h.engine.update(container: 0, at: 2_010_000) { $0.endRefresh(at: 2_010_000) }
        #expect(h.state.refreshing == false)
        #expect(h.state.phase == .interacting)
        #expect(h.state.contentOffset.y == held)
        // The drag goes on from there against lo = 0: 30 px back shows −band(b⁻¹(81.22) − 30).
        h.send(.finger(2_020_000, y: 30))
        let raw = -RubberBand(coefficient: 0.55, dimension: 600).inverse(-held) + 30
        expectClose(h.state.contentOffset.y, -Self.band(-raw), tolerance: 1e-9)
        #expect(h.state.contentOffset.y > -80)
        h.send(.stop(2_220_000))
        #expect(h.state.refreshing == false)
        h.settle()
        #expect(h.state.contentOffset.y == 0)
    }

    /// The same with a rubber band of a few ulps (an accepted `rubber_band`): undoing the band
    /// for the drag's raw position divides by a denormal; the quotient is cut at 10⁹ px, so the
    /// drag goes on (it stopped, non-finite, and the container came to rest mid-drag).
    @Test func endRefreshWhileADragIsOnWithTheSmallestRubberBand() throws {
        var configuration = Self.configuration
        configuration.physics.rubberBand = .leastNonzeroMagnitude
        var h = Harness(configuration)
        // Refreshing, resting at lo − r = −60 (a pull this band shows nothing of cannot start it).
        _ = h.engine.update(container: 0, at: 1_000) { _ = $0.beginRefresh(at: 1_000) }
        try h.scroll(to: ScrollPosition(y: -60), at: 10_000)
        h.send(.finger(2_000_000, y: -10))
        let dragStart = h.published.count - 1
        _ = h.engine.update(container: 0, at: 2_010_000) { $0.endRefresh(at: 2_010_000) }
        h.send(.finger(2_020_000, y: -5), .finger(2_030_000, y: -5))
        #expect(h.published[dragStart...].map(\.state.phase) == Array(repeating: .interacting, count: h.published.count - dragStart))
        h.send(.stop(2_220_000))
        h.settle()
        #expect(h.state.contentOffset.y == 0)
        #expect(h.published.allSatisfy { $0.state.isFinite })
    }

    /// beginRefresh: refreshing at once, nothing moves; lo − r is then reachable.
    @Test func beginRefreshProgrammatically() throws {
        var h = Harness(Self.configuration)
        var changed = false
        _ = h.engine.update(container: 0, at: 1_000) { changed = $0.beginRefresh(at: 1_000) }
        #expect(changed)
        #expect(h.state.refreshing == true)
        #expect(h.state.contentOffset.y == 0)
        #expect(h.state.phase == .idle)
        var copy = h.container
        let again = copy.beginRefresh(at: 2_000)
        #expect(!again)
        try h.scroll(to: ScrollPosition(y: -60), at: 10_000)
        #expect(h.state.contentOffset.y == -60)
        // Resting at lo itself, endRefresh moves nothing.
        try h.scroll(to: ScrollPosition(y: 0), at: 20_000)
        _ = h.engine.update(container: 0, at: 30_000) { $0.endRefresh(at: 30_000) }
        #expect(h.state.phase == .idle)
        #expect(h.state.contentOffset.y == 0)
        #expect(h.engine.nextDeadline == nil)
    }

    @Test func aConfigurationWithoutRefreshEndsIt() {
        var h = Harness(Self.configuration)
        h.send(.finger(0, y: -200), .stop(200_000))
        h.settle()
        h.configure(ContainerConfiguration(), at: 5_000_000)
        #expect(h.state.refreshing == nil)
        #expect(h.state.contentOffset.y == 0)
    }
}
