import ScrollModel
import Testing

/// docs/design.md §12 "scrollTo a row" and "scrollTo an edge", with docs/physics.md's worked
/// example.
@Suite("Positions: scrollTo a row with an anchor, minimally, or an edge")
struct ScrollPositionTests {
    /// 100 rows of 44 px under a header 60…200 (rows start at 200), H = 600: content 4600,
    /// resting range [0, 4000], usable area U(y) = [y + 60, y + 600], L = 540.
    var list: ContainerConfiguration {
        var config = ContainerConfiguration(contentSize: nil)
        config.header = HeaderConfiguration(minHeight: 60, maxHeight: 200)
        config.rows = RowsConfiguration(count: 100, height: 44)
        return config
    }

    func offset(after position: ScrollPosition, in config: ContainerConfiguration, from start: Double? = nil) throws -> Double {
        var h = Harness(config)
        if let start { try h.scroll(to: ScrollPosition(y: start), at: 0) }
        try h.scroll(to: position, at: 1_000_000)
        return h.state.contentOffset.y
    }

    @Test func anAnchorMeetsTheSameFractionOfTheUsableArea() throws {
        // y* = r_N + A·h_N − a_lo − m − A·L: row 50 starts at 2400.
        #expect(try offset(after: .row(50, anchor: .center), in: list) == 2400 + 22 - 60 - 0.5 * 540)
        #expect(try offset(after: .row(50, anchor: .center), in: list) == 2092)
        #expect(try offset(after: .row(50, anchor: .top), in: list) == 2340)
        #expect(try offset(after: .row(50, anchor: .bottom), in: list) == 1844)
        #expect(try offset(after: .row(50, anchor: ScrollAnchor(0.25)), in: list) == 2216)
        #expect(try offset(after: .row(50, anchor: ScrollAnchor(named: "leading")), in: list) == 2340)
        #expect(try offset(after: .row(50, anchor: ScrollAnchor(named: "trailing")), in: list) == 1844)
        // Clamped to the resting range.
        #expect(try offset(after: .row(0, anchor: .center), in: list) == 0)
        #expect(try offset(after: .row(99, anchor: .top), in: list) == 4000)
    }

    @Test func insetsNarrowTheUsableArea() throws {
        // No header, insets 20 above and 30 below: L = 550, range [−20, 3830].
        var config = ContainerConfiguration(contentSize: nil, contentInsets: EdgeInsets(top: 20, bottom: 30))
        config.rows = RowsConfiguration(count: 100, height: 44)
        #expect(try offset(after: .row(50, anchor: .center), in: config) == 2200 + 22 - 20 - 275)
        #expect(try offset(after: .row(50, anchor: .bottom), in: config) == 1674)
        #expect(try offset(after: .edge(.top), in: config, from: 1000) == -20)
        #expect(try offset(after: .edge(.bottom), in: config) == 3830)
    }

    @Test func withoutAnAnchorTheScrollIsMinimal() throws {
        // Wholly inside U(0) = [60, 600]: nothing moves and nothing is published.
        var h = Harness(list)
        let count = h.published.count
        for row in [1, 5, 8] {
            let moved = try h.scroll(to: .row(row), at: 1_000_000)
            #expect(!moved)
        }
        #expect(h.published.count == count)
        #expect(h.state.contentOffset.y == 0)
        // Below: its bottom meets the area's bottom (A = 1).
        #expect(try offset(after: .row(20), in: list) == 1080 + 44 - 60 - 540)
        // Starting above U(300) = [360, 900], under the pinned header: its top meets the area's.
        #expect(try offset(after: .row(3), in: list, from: 300) == 332 - 60)
        // Longer than L: its top meets the area's top even though it starts inside.
        var tall = ContainerConfiguration(contentSize: nil)
        tall.rows = RowsConfiguration(heights: .explicit([100, 1000, 100]))
        #expect(try offset(after: .row(1), in: tall) == 100)
    }

    @Test func theMinimalScrollReadsTheOffsetShownWhenTheRequestArrives() throws {
        var h = Harness(list)
        try h.scroll(to: ScrollPosition(y: 1000), animation: .smooth, at: 0)
        // 0.1 s into the spring it shows 357.7; U = [417.7, 957.7] holds row 5 (420–464).
        let now = h.sample(at: 100_000)
        expectClose(now.contentOffset.y, 357.74, tolerance: 0.01)
        let moved = try h.scroll(to: .row(5), at: 100_000)
        #expect(!moved)
        #expect(h.state.phase == .animating)
        let movedAgain = try h.scroll(to: .row(4), at: 100_000)  // 376–420: above U, the top meets
        #expect(movedAgain)
        h.settle()
        #expect(h.state.contentOffset.y == 376 - 60)
    }

    @Test func animationsFollowTheirSpringToTheTarget() throws {
        var h = Harness(list)
        try h.scroll(to: .row(50, anchor: .center), animation: .smooth, at: 0)
        #expect(h.state.phase == .animating)
        let spring = SpringCurve(from: 0, velocity: 0, target: 2092, spring: .smooth)
        expectClose(h.sample(at: 100_000).contentOffset.y, spring.position(at: 0.1), tolerance: 1e-9)
        h.settle()
        #expect(h.state.contentOffset.y == 2092)
        #expect(h.state.phase == .idle)
    }

    @Test func aHorizontalListScrollsAlongX() throws {
        var config = ContainerConfiguration(containerSize: Size(width: 800, height: 600), contentSize: nil, axes: .horizontal)
        config.rows = RowsConfiguration(count: 50, height: 120)
        func x(_ position: ScrollPosition) throws -> Double {
            var h = Harness(config)
            try h.scroll(to: position, at: 0)
            return h.state.contentOffset.x
        }
        #expect(try x(.row(10, anchor: .leading)) == 1200)
        #expect(try x(.row(10, anchor: .trailing)) == 1200 + 120 - 800)
        #expect(try x(.row(10, anchor: .center)) == 1200 + 60 - 400)
        #expect(try x(.row(10)) == 520)
        #expect(try x(.edge(.trailing)) == 5200)
        #expect(throws: ScrollPositionError.edgeNotScrolled(.top)) { try x(.edge(.top)) }
    }

    @Test func aRowAlongOneAxisAndACoordinateAlongTheOther() throws {
        var config = ContainerConfiguration(contentSize: Size(width: 1600, height: 4400), axes: .both)
        config.rows = RowsConfiguration(count: 100, height: 44)
        var h = Harness(config)
        try h.scroll(to: ScrollPosition(x: 100, row: 50, anchor: .top), at: 0)
        #expect(h.state.contentOffset == Point(x: 100, y: 2200))
        try h.scroll(to: ScrollPosition(x: 300, edge: .bottom), at: 1)
        #expect(h.state.contentOffset == Point(x: 300, y: 3800))
    }

    @Test func requestsThatCannotApplyAreRefusedAndChangeNothing() throws {
        var h = Harness(list)
        try h.scroll(to: ScrollPosition(y: 700), at: 0)
        let before = h.state
        func failure(_ position: ScrollPosition, in harness: inout Harness) -> ScrollPositionError? {
            do {
                try harness.scroll(to: position, at: 1_000_000)
                return nil
            } catch {
                return error
            }
        }
        #expect(failure(.row(100), in: &h) == .rowOutOfRange(row: 100, count: 100))
        #expect(failure(.row(-1), in: &h) == .rowOutOfRange(row: -1, count: 100))
        #expect(failure(ScrollPosition(anchor: .top), in: &h) == .anchorWithoutRow)
        #expect(failure(ScrollPosition(y: 5, row: 3), in: &h) == .conflictingTargets(.vertical, first: "row", second: "y"))
        #expect(failure(ScrollPosition(y: 5, edge: .bottom), in: &h) == .conflictingTargets(.vertical, first: "edge", second: "y"))
        #expect(failure(ScrollPosition(row: 3, edge: .top), in: &h) == .conflictingTargets(.vertical, first: "row", second: "edge"))
        #expect(failure(.edge(.leading), in: &h) == .edgeNotScrolled(.leading))
        #expect(h.state == before)
        var plain = Harness()
        #expect(failure(.row(0), in: &plain) == .noRows)
        #expect(throws: ScrollPositionError.anchorOutOfRange(1.5)) { try ScrollAnchor(1.5) }
        #expect(throws: ScrollPositionError.anchorOutOfRange(-0.1)) { try ScrollAnchor(-0.1) }
        #expect(throws: ScrollPositionError.self) { try ScrollAnchor(.nan) }
        #expect(throws: ScrollPositionError.unknownAnchor("middle")) { try ScrollAnchor(named: "middle") }
        #expect(throws: ScrollPositionError.unknownEdge("left")) { try Edge(named: "left") }
        #expect(try Edge(named: "trailing") == .trailing)
        // A coordinate along an axis the container does not scroll is ignored, as for x/y.
        let moved = try h.scroll(to: ScrollPosition(x: 40, row: 40), at: 2_000_000)
        #expect(moved)
        #expect(h.state.contentOffset == Point(x: 0, y: 1960 + 44 - 60 - 540))
    }

    @Test func errorsNameTheFieldAndTheValue() {
        #expect(ScrollPositionError.rowOutOfRange(row: 100, count: 100).description == "invalid \"row\": 100 is not a row of this container (it has 100 rows: 0…99)")
        #expect(ScrollPositionError.noRows.field == "row")
        #expect(ScrollPositionError.anchorOutOfRange(1.5).description.contains("1.5 is outside [0, 1]"))
        #expect(ScrollPositionError.unknownAnchor("middle").field == "anchor")
        #expect(ScrollPositionError.conflictingTargets(.vertical, first: "row", second: "y").description == "invalid \"row\": \"row\" and \"y\" both aim the vertical axis; give one")
        #expect(ScrollPositionError.edgeNotScrolled(.leading).description == "invalid \"edge\": the container does not scroll horizontally, so it has no leading edge to scroll to")
    }
}
