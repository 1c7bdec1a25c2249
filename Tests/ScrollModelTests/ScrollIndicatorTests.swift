@testable import ScrollModel
import Testing

/// docs/design.md §22 "Scroll indicators": the thumb's geometry from the offset, and when it shows.
@Suite("Scroll indicators")
struct ScrollIndicatorTests {
    /// 800 × 600 over 800 × 3000, vertical: T = 600, l = 600 · 600 / 3000 = 120, hi = 2400.
    static let plain = ContainerConfiguration(contentSize: Size(width: 800, height: 3000))

    static func thumb(_ h: Harness) -> ScrollIndicator { h.state.indicators!.y! }

    @Test func atRestAtTheTop() {
        let h = Harness(Self.plain, lingering: true)
        #expect(h.state.indicators == ScrollIndicators(x: nil, y: ScrollIndicator(offset: 0, length: 120, visible: false)))
    }

    /// `o = (T − l) × (y − lo)/(hi − lo)`: half way, (600 − 120) / 2; at the end, 480.
    @Test func midContentAndAtTheEnd() throws {
        var h = Harness(Self.plain, lingering: true)
        try h.scroll(to: ScrollPosition(y: 1200), at: 0)
        #expect(Self.thumb(h).offset == 240)
        #expect(Self.thumb(h).length == 120)
        try h.scroll(to: ScrollPosition(y: 2400), at: 1_000_000)
        #expect(Self.thumb(h).offset == 480)
    }

    /// In the rubber band the thumb shrinks by how far the offset lies beyond the edge, down to ℓ,
    /// and stays against that end of the track.
    @Test func inRubberBandAtBothEnds() {
        var top = Harness(Self.plain, lingering: true)
        top.send(.finger(0, y: -90))
        let pulled = top.state.contentOffset.y
        #expect(pulled < 0)
        #expect(Self.thumb(top).length == 120 + pulled)
        #expect(Self.thumb(top).offset == 0)
        top.send(.finger(10_000, y: -400))
        // e > 84: the length is ℓ = 36.
        #expect(top.state.contentOffset.y < -84)
        #expect(Self.thumb(top).length == 36)

        var bottom = Harness(Self.plain, lingering: true)
        bottom.send(.finger(0, y: 2490))
        let beyond = bottom.state.contentOffset.y - 2400
        #expect(beyond > 0)
        #expect(Self.thumb(bottom).length == 120 - beyond)
        #expect(Self.thumb(bottom).offset == 600 - (120 - beyond))
    }

    /// With insets and a collapsing header the track is `H − a_lo − a_hi − h(y)`, and the content
    /// counts its insets: `l = T × H / (C + a_lo + a_hi)`.
    @Test func withAHeaderAndInsets() throws {
        let configuration = ContainerConfiguration(
            contentSize: Size(width: 800, height: 3000), contentInsets: EdgeInsets(top: 10, bottom: 20),
            header: HeaderConfiguration(minHeight: 60, maxHeight: 100)
        )
        var h = Harness(configuration, lingering: true)
        // At lo = −10 the header is whole: T = 600 − 30 − 100.
        #expect(Self.thumb(h) == ScrollIndicator(offset: 0, length: 470.0 * 600 / 3030, visible: false))
        try h.scroll(to: ScrollPosition(y: 500), at: 0)
        // h = max(60, 100 − 510) = 60: T = 510; hi = 3000 − 600 + 20 = 2420.
        let length = 510.0 * 600 / 3030
        #expect(Self.thumb(h).length == length)
        expectClose(Self.thumb(h).offset, (510 - length) * (510.0 / 2430), tolerance: 1e-9)
    }

    /// A container that scrolls both axes carries both; content that fits has offset 0.
    @Test func bothAxesAndContentThatFits() {
        let h = Harness(ContainerConfiguration(contentSize: Size(width: 1600, height: 300), axes: .both), lingering: true)
        #expect(h.state.indicators == ScrollIndicators(
            x: ScrollIndicator(offset: 0, length: 400, visible: false),
            y: ScrollIndicator(offset: 0, length: 1200, visible: false)
        ))
    }

    /// Visible from the first change of offset through the gesture and its fling, until 500 ms
    /// after the phase went idle: then one state (the timer's) hides them, and nothing is due.
    @Test func visibleOverAGestureAndItsLinger() {
        var h = Harness(Self.plain, lingering: true)
        h.send(.finger(0, y: 20), .finger(10_000, y: 20), .stop(20_000))
        h.settle()
        let states = h.published.map(\.state)
        let idle = states.firstIndex { $0.phase == .idle }!
        #expect(states[..<idle].allSatisfy { $0.indicators!.y!.visible })
        #expect(states[idle].indicators!.y!.visible)
        // The idle state and exactly one more: the hide, at idle + 500 ms, by the timer.
        #expect(states.count == idle + 2)
        #expect(states[idle + 1].time == states[idle].time + 500_000)
        #expect(!states[idle + 1].indicators!.y!.visible)
        #expect(h.published.last!.cause == .timer)
        #expect(states[idle + 1].contentOffset == states[idle].contentOffset)
        #expect(h.engine.nextDeadline == nil)
    }

    /// A new gesture during the linger keeps them shown; the hide comes after its own rest.
    @Test func aGestureDuringTheLingerPostponesTheHide() {
        var h = Harness(Self.plain, lingering: true)
        h.send(.finger(0, y: 20), .stop(1_000_000))
        h.run(until: 1_200_000)
        #expect(h.state.indicators!.y!.visible)
        h.send(.finger(1_300_000, y: 20), .stop(2_300_000))
        h.settle()
        let hides = h.published.filter { $0.cause == .timer }
        #expect(hides.count == 1)
        #expect(hides.first?.state.time == 2_800_000)
    }

    /// `flashIndicators` at rest: shown at once, hidden by one timer state after the linger.
    @Test func flashShowsThemForTheLinger() {
        var h = Harness(Self.plain, lingering: true)
        _ = h.engine.update(container: 0, at: 1_000_000) { $0.flashIndicators(at: 1_000_000) }
        #expect(h.state.indicators!.y!.visible)
        #expect(h.engine.nextDeadline == 1_500_000)
        h.settle()
        #expect(h.published.count == 1)
        #expect(h.published[0].cause == .timer)
        #expect(h.published[0].state.time == 1_500_000)
        #expect(!h.state.indicators!.y!.visible)
    }

    /// `indicator_linger_ms` and `indicator_min_length` as configured; a linger of 0 hides them
    /// with the state that comes to rest, with no timer at all.
    @Test func theLingerAndTheMinimumAreConfigurable() {
        var configuration = Self.plain
        configuration.gestures.indicatorLingerMilliseconds = 0
        configuration.gestures.indicatorMinLength = 150
        var h = Harness(configuration, lingering: true)
        #expect(Self.thumb(h).length == 150)
        h.send(.finger(0, y: 20), .stop(1_000_000))
        #expect(h.state.phase == .idle)
        #expect(!Self.thumb(h).visible)
        #expect(h.engine.nextDeadline == nil)
        #expect(h.published.count == 2)
        #expect(h.published[0].state.indicators!.y!.visible)
    }

    /// Content of 10⁻³⁰⁰ px under a container of 10⁹: `T·H/C` would overflow; content that
    /// short has no length at all (``ScrollIndicator/noLength``), so the thumb fills the track,
    /// finite on both axes, also while a drag pulls it.
    @Test func contentOfAFractionOfAPixelGivesAFiniteThumb() {
        let configuration = ContainerConfiguration(
            containerSize: Size(width: 1e9, height: 1e9), contentSize: Size(width: 1e-300, height: 1e-300), axes: .both
        )
        var h = Harness(configuration, lingering: true)
        #expect(h.state.indicators == ScrollIndicators(
            x: ScrollIndicator(offset: 0, length: 1e9, visible: false),
            y: ScrollIndicator(offset: 0, length: 1e9, visible: false)
        ))
        h.send(.finger(0, y: 50))
        let thumb = Self.thumb(h)
        #expect(thumb.length.isFinite && thumb.offset.isFinite)
    }
}
