import Foundation
@testable import ScrollModel
import Testing

/// docs/design.md §22 "Proximity snapping and snap stop", over §5's scroll targets.
@Suite("Proximity snapping and snap stop")
struct SnapRuleTests {
    /// 100 rows of 100 px in a 600 px container (content 10 000).
    static func rows(_ type: SnapType = .mandatory, proximity: Double? = nil, stop: Bool = false) -> ContainerConfiguration {
        var configuration = ContainerConfiguration(contentSize: nil, rows: RowsConfiguration(count: 100, height: 100), scrollTarget: .rows)
        configuration.gestures.snapType = type
        configuration.gestures.snapProximity = proximity
        configuration.gestures.snapStop = stop
        return configuration
    }

    /// Pages of 600 px over 6000 px of content.
    static func pages(stop: Bool) -> ContainerConfiguration {
        var configuration = ContainerConfiguration(contentSize: Size(width: 800, height: 6000), scrollTarget: .paging)
        configuration.gestures.snapStop = stop
        return configuration
    }

    /// `y∞ = y0 − v/k`, `k = 1000 ln 0.998`: where an `ios` fling comes to rest.
    static func restingPoint(_ y0: Double, _ v: Double) -> Double { y0 - v / (1000 * log(0.998)) }

    /// From `start` (a jump at 0), `count` finger events of `dy` 10 ms apart from t = 1 s, then the
    /// stop 10 ms after the last: a fling of `dy / 0.01` px/s released at `start + count·dy`.
    static func fling(_ configuration: ContainerConfiguration, from start: Double, count: Int, dy: Double) throws -> Harness {
        var h = Harness(configuration)
        if start != 0 { try h.scroll(to: ScrollPosition(x: nil, y: start), at: 0) }
        for i in 0..<count { h.send(.finger(1_000_000 + Timestamp(i) * 10_000, y: dy)) }
        h.send(.stop(1_000_000 + Timestamp(count) * 10_000))
        h.settle()
        return h
    }

    /// A slow release (no fling: the stop comes a second after the drag) comes to rest where it
    /// was let go; `proximity` snaps it only within `snap_proximity` of a row top.
    static func release(_ configuration: ContainerConfiguration, at y: Double) -> Harness {
        var h = Harness(configuration)
        h.send(.finger(1_000_000, y: y), .stop(2_000_000))
        h.settle()
        return h
    }

    @Test func proximitySnapsInsideTheDistanceAndRestsOutsideIt() {
        #expect(Self.release(Self.rows(.proximity, proximity: 20), at: 110).state.contentOffset.y == 100)
        #expect(Self.release(Self.rows(.proximity, proximity: 20), at: 180).state.contentOffset.y == 200)
        #expect(Self.release(Self.rows(.proximity, proximity: 20), at: 150).state.contentOffset.y == 150)
        #expect(Self.release(Self.rows(.proximity, proximity: 20), at: 121).state.contentOffset.y == 121)
        #expect(Self.release(Self.rows(.proximity, proximity: 20), at: 120).state.contentOffset.y == 100)
        // Mandatory (the default) snaps wherever it rests.
        #expect(Self.release(Self.rows(), at: 140).state.contentOffset.y == 100)
    }

    /// Without `snap_proximity` the distance is a third of the container's length: 200 px here.
    @Test func theDefaultDistanceIsAThirdOfTheContainer() {
        #expect(Self.release(Self.rows(.proximity), at: 140).state.contentOffset.y == 100)
        var short = Self.rows(.proximity)
        short.containerSize = Size(width: 800, height: 120)
        // 50 px from both 100 and 200 is more than 120 / 3; 40 px is not.
        #expect(Self.release(short, at: 150).state.contentOffset.y == 150)
        #expect(Self.release(short, at: 140).state.contentOffset.y == 100)
        #expect(Self.release(short, at: 141).state.contentOffset.y == 141)
    }

    /// A fling whose natural resting point is near a row top snaps to it; one that rests far from
    /// every row top decelerates to its own `y∞`, as without a scroll target.
    @Test func proximityAppliesToTheFlingsNaturalRestingPoint() throws {
        // 5 × 40 px: released at 200 with 4000 px/s, y∞ = 2197.999…, within 20 of 2200.
        let near = try Self.fling(Self.rows(.proximity, proximity: 20), from: 0, count: 5, dy: 40)
        #expect(near.state.contentOffset.y == 2200)
        // 5 × 50 px: released at 250 with 5000 px/s, y∞ = 2747.499…, 47.5 from a row top.
        let far = try Self.fling(Self.rows(.proximity, proximity: 20), from: 0, count: 5, dy: 50)
        expectClose(far.state.contentOffset.y, Self.restingPoint(250, 5000), tolerance: 1e-9)
        #expect(far.state.phase == .idle)
    }

    /// `snap_stop`: a slow fling and a very fast one both rest at the first row top beyond the
    /// one nearest the release position, in the fling's direction.
    @Test func snapStopStopsFlingsOfRowsAtTheNextRow() throws {
        // From 125, 11 × 1 px (100 px/s): released at 136, nearest 100, next 200.
        #expect(try Self.fling(Self.rows(stop: true), from: 125, count: 11, dy: 1).state.contentOffset.y == 200)
        // Upwards: released at 114, nearest 100, next 0 (mandatory alone would rest at 100).
        #expect(try Self.fling(Self.rows(stop: true), from: 125, count: 11, dy: -1).state.contentOffset.y == 0)
        #expect(try Self.fling(Self.rows(), from: 125, count: 11, dy: -1).state.contentOffset.y == 100)
        // 5 × 50 px (5000 px/s) from 125: released at 375, nearest 400, next 500; without
        // snap_stop it runs on to the row nearest y∞ = 2872.499….
        #expect(try Self.fling(Self.rows(stop: true), from: 125, count: 5, dy: 50).state.contentOffset.y == 500)
        #expect(try Self.fling(Self.rows(), from: 125, count: 5, dy: 50).state.contentOffset.y == 2900)
        // 20 000 px/s: still the next row.
        #expect(try Self.fling(Self.rows(stop: true), from: 125, count: 5, dy: 200).state.contentOffset.y == 1200)
    }

    /// Paging: the next page boundary beyond the one nearest the release position.
    @Test func snapStopStopsFlingsOfPagesAtTheNextPage() throws {
        // From 600, 11 × 1 px: released at 611, nearest 600, next 1200; paging alone stays at 600.
        #expect(try Self.fling(Self.pages(stop: true), from: 600, count: 11, dy: 1).state.contentOffset.y == 1200)
        #expect(try Self.fling(Self.pages(stop: false), from: 600, count: 11, dy: 1).state.contentOffset.y == 600)
        // 5 × 200 px (20 000 px/s): released at 1600, nearest 1800, next 2400.
        #expect(try Self.fling(Self.pages(stop: true), from: 600, count: 5, dy: 200).state.contentOffset.y == 2400)
        // Backwards from 1800, 5 × −50: released at 1550, nearest 1800, next 1200.
        #expect(try Self.fling(Self.pages(stop: true), from: 1800, count: 5, dy: -50).state.contentOffset.y == 1200)
        // At the end there is no further page: it rests at hi.
        #expect(try Self.fling(Self.pages(stop: true), from: 5400, count: 5, dy: -20).state.contentOffset.y == 4800)
    }

    /// A release that is not a fling follows `snap_type` even with `snap_stop`.
    @Test func snapStopLeavesReleasesWithoutAFlingToTheSnapType() {
        #expect(Self.release(Self.rows(stop: true), at: 140).state.contentOffset.y == 100)
    }
}
