@testable import ScrollModel
import Testing

/// docs/design.md §21 "Sticky rows": the pinned row and its drawn top at, just before and just
/// after every section boundary (and where the push-off starts), without and with a header, in
/// both header modes.
@Suite("App bars: sticky rows")
struct StickyRowTests {
    /// 30 rows of 50 px, sections starting at rows 0, 5 and 12.
    static func rows(top: Double? = nil) -> RowsConfiguration {
        RowsConfiguration(count: 30, height: 50, top: top, sticky: [0, 5, 12])
    }

    static func sticky(_ h: inout Harness, at y: Double, time: Timestamp) -> StickyRow? {
        _ = h.engine.update(container: 0, at: time) { $0.scroll(to: AxisValues(y: y), animation: .none, at: time) }
        return h.state.stickyRow
    }

    @Test func withoutAHeaderThePinLineIsTheTop() {
        var h = Harness(ContainerConfiguration(contentSize: nil, rows: Self.rows()))
        // r₀ = 0, r₅ = 250, r₁₂ = 600; p(y) = y. Row 0 is pushed off from p = r₅ − 50 = 200 on.
        let expected: [(y: Double, row: Int, top: Double)] = [
            (0, 0, 0), (199.5, 0, 199.5), (200, 0, 200), (200.5, 0, 200), (230, 0, 200),
            (249.5, 0, 200), (250, 5, 250), (250.5, 5, 250.5),
            (549.5, 5, 549.5), (550, 5, 550), (550.5, 5, 550), (599.5, 5, 550),
            (600, 12, 600), (600.5, 12, 600.5), (900, 12, 900),
        ]
        for (i, step) in expected.enumerated() {
            let sticky = Self.sticky(&h, at: step.y, time: Timestamp(i) * 10_000)
            #expect(sticky == StickyRow(row: step.row, top: step.top), "at y = \(step.y)")
        }
        // On screen: the pushed-off row 0 at y = 230 is drawn 30 px above the top (T − y).
        let state = Self.sticky(&h, at: 230, time: 1_000_000)
        #expect(state.map { $0.top - 230 } == -30)
    }

    @Test func noneIsPinnedAboveTheFirstStickyRow() {
        var h = Harness(ContainerConfiguration(contentSize: nil, rows: RowsConfiguration(count: 30, height: 50, sticky: [3, 5])))
        #expect(Self.sticky(&h, at: 149.5, time: 0) == nil)
        #expect(Self.sticky(&h, at: 150, time: 10_000) == StickyRow(row: 3, top: 150))
        // Past the top in rubber band the pin line is above row 0's top: none.
        var pulled = Harness(ContainerConfiguration(contentSize: nil, rows: Self.rows()))
        pulled.send(.finger(0, y: -10))
        #expect(pulled.state.contentOffset.y < 0)
        #expect(pulled.state.stickyRow == nil)
        // No `sticky` key: never any.
        var plain = Harness(ContainerConfiguration(contentSize: nil, rows: RowsConfiguration(count: 30, height: 50)))
        #expect(Self.sticky(&plain, at: 300, time: 0) == nil)
    }

    @Test func stickyIndicesPastTheLastRowAreIgnored() {
        let rows = RowsConfiguration(count: 10, height: 50, sticky: [2, 40])
        var h = Harness(ContainerConfiguration(containerSize: Size(width: 800, height: 100), contentSize: nil, rows: rows))
        // Row 40 does not exist: row 2 is the last section and is never pushed off.
        #expect(Self.sticky(&h, at: 400, time: 0) == StickyRow(row: 2, top: 400))
    }

    @Test func underAPinnedHeaderThePinLineIsItsBottom() {
        let header = HeaderConfiguration(minHeight: 40, maxHeight: 100, snap: false)
        var h = Harness(ContainerConfiguration(contentSize: nil, header: header, rows: Self.rows()))
        // Rows start at M = 100: r₀ = 100, r₅ = 350, r₁₂ = 700. p(y) = y + max(40, 100 − y).
        let expected: [(y: Double, row: Int, top: Double)] = [
            (0, 0, 100), (60, 0, 100), (259.5, 0, 299.5), (260, 0, 300), (260.5, 0, 300),
            (309.5, 0, 300), (310, 5, 350), (310.5, 5, 350.5),
            (609.5, 5, 649.5), (610, 5, 650), (610.5, 5, 650), (659.5, 5, 650),
            (660, 12, 700), (660.5, 12, 700.5),
        ]
        for (i, step) in expected.enumerated() {
            let sticky = Self.sticky(&h, at: step.y, time: Timestamp(i) * 10_000)
            #expect(sticky == StickyRow(row: step.row, top: step.top), "at y = \(step.y)")
        }
        // With an inset the pin line moves down by it.
        var inset = Harness(ContainerConfiguration(contentSize: nil, contentInsets: EdgeInsets(top: 30, leading: 0, bottom: 0, trailing: 0), header: header, rows: Self.rows()))
        // y = 300: u = 330, h = 40, p = 300 + 30 + 40 = 370 (row 5 from 350 on).
        #expect(Self.sticky(&inset, at: 300, time: 0) == StickyRow(row: 5, top: 370))
    }

    @Test func underAnEnterAlwaysHeaderThePinLineFollowsTheRevealedHeader() {
        let header = HeaderConfiguration(minHeight: 40, maxHeight: 100, snap: false, mode: .enterAlways)
        var h = Harness(ContainerConfiguration(contentSize: nil, header: header, rows: RowsConfiguration(count: 60, height: 50, sticky: [0, 5, 12, 20])))
        // r₁₂ = 700, r₂₀ = 1100. At y = 1000 collapsed: p = 1040.
        #expect(Self.sticky(&h, at: 1000, time: 0) == StickyRow(row: 12, top: 1040))
        // Down to the boundary r₂₀ − m = 1060 (the header stays collapsed).
        h.send(.finger(10_000, y: 59.5))
        #expect(h.state.stickyRow == StickyRow(row: 12, top: 1050))
        h.send(.finger(20_000, y: 0.5))
        #expect(h.state.contentOffset.y == 1060)
        #expect(h.state.stickyRow == StickyRow(row: 20, top: 1100))
        h.send(.finger(30_000, y: 0.5))
        #expect(h.state.stickyRow == StickyRow(row: 20, top: 1100.5))
        // Back up: the header comes back by as much as the content moves, so the pin line stays
        // put until the header is whole (y = 1000.5, h = 100).
        h.send(.finger(40_000, y: -30))
        #expect(h.state.header?.height == 70)
        #expect(h.state.stickyRow == StickyRow(row: 20, top: 1100.5))
        h.send(.finger(50_000, y: -30))
        #expect(h.state.contentOffset.y == 1000.5)
        #expect(h.state.header?.height == 100)
        #expect(h.state.stickyRow == StickyRow(row: 20, top: 1100.5))
        // Then the pin line moves with the content again: just before r₂₀ it is row 12's.
        h.send(.finger(60_000, y: -1))
        #expect(h.state.stickyRow == StickyRow(row: 12, top: 1050))
        // The observation's value is the row index.
        #expect(h.container.value(of: .stickyRow, in: h.state) == .number(12))
    }

    @Test func rowsOfDifferentHeightsPushOffByTheRowsOwnHeight() {
        let rows = RowsConfiguration(heights: .explicit([30, 10, 10, 60, 10, 10]), sticky: [0, 3])
        var h = Harness(ContainerConfiguration(containerSize: Size(width: 800, height: 40), contentSize: nil, rows: rows))
        // r₀ = 0 (h₀ = 30), r₃ = 50: row 0 pushed off from p = 20 on.
        #expect(Self.sticky(&h, at: 19.5, time: 0) == StickyRow(row: 0, top: 19.5))
        #expect(Self.sticky(&h, at: 35, time: 10_000) == StickyRow(row: 0, top: 20))
        #expect(Self.sticky(&h, at: 50, time: 20_000) == StickyRow(row: 3, top: 50))
    }
}
