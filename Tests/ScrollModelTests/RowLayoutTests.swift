@testable import ScrollModel
import Testing

/// `RowLayout` finds rows by division (uniform heights) or binary search (explicit ones); both
/// are held here to the definition, by brute force over offsets before, inside and past the list.
@Suite struct RowLayoutTests {
    func bruteFirstRow(_ layout: RowLayout, endingAfter position: Double) -> Int {
        (0..<layout.count).first { layout.end($0) > position } ?? layout.count
    }

    func bruteVisible(_ layout: RowLayout, offset: Double, length: Double) -> VisibleRows {
        let visible = (0..<layout.count).filter { layout.isVisible($0, offset, offset + length) }
        return VisibleRows(first: visible.first, last: visible.last)
    }

    /// Rows of no height cost a client one stored entry however many: ten million of them
    /// between two rows are passed at once, not one by one on every state (a hostile finding:
    /// 0.33 s a state), at the top edge and at the bottom one.
    @Test func runsOfRowsOfNoHeightArePassedAtOnce() {
        let zeros = Limits.rows - 2
        let layout = RowLayout(RowsConfiguration(heights: .runs([(1, 100), (zeros, 0), (1, 100)] as [(count: Int, height: Double)])), defaultTop: 0)
        // Row 0 shows 40 of its 100 px (under the threshold of 0.5): the last row is the first visible.
        #expect(layout.visibleRows(offset: 60, length: 600) == VisibleRows(first: zeros + 1, last: zeros + 1))
        let bottom = RowLayout(RowsConfiguration(heights: .runs([(1, 500), (zeros, 0), (1, 300)] as [(count: Int, height: Double)])), defaultTop: 0)
        // The last row shows 100 of its 300 px: the first row is the last visible.
        #expect(bottom.visibleRows(offset: 0, length: 600) == VisibleRows(first: 0, last: 0))
        #expect(bottom.visibleRows(offset: 0, length: 700) == VisibleRows(first: 0, last: zeros + 1))
        #expect(bottom.visibleRows(offset: 450, length: 100) == .empty)
    }

    @Test(arguments: [
        RowsConfiguration(count: 200, height: 44, top: 100),
        RowsConfiguration(count: 50, height: 0.1 + 0.2),
        RowsConfiguration(heights: .explicit([10, 0, 30, 44, 44, 7.5, 300, 1]), top: -20),
        // Runs of rows of no height, at the top, between rows, and at the end.
        RowsConfiguration(heights: .runs([(3, 0), (1, 100), (500, 0), (1, 100), (300, 0), (3, 44.5), (1, 0), (1, 280), (200, 0)] as [(count: Int, height: Double)])),
        RowsConfiguration(heights: .explicit([0, 0, 500] + Array(repeating: 0, count: 400) + [300, 0, 0, 60]), top: 7),
    ])
    func findsTheRowsTheDefinitionFinds(_ rows: RowsConfiguration) {
        let layout = RowLayout(rows, defaultTop: 0)
        var offset = -500.0
        while offset < layout.top + layout.totalHeight + 500 {
            #expect(layout.firstRow(endingAfter: offset) == bruteFirstRow(layout, endingAfter: offset), "offset \(offset)")
            for length in [0.0, 17, 600] {
                #expect(layout.visibleRows(offset: offset, length: length) == bruteVisible(layout, offset: offset, length: length), "offset \(offset) length \(length)")
            }
            offset += 3.7
        }
        #expect(layout.firstRow(endingAfter: .infinity) == layout.count)
        #expect(layout.firstRow(endingAfter: -.infinity) == bruteFirstRow(layout, endingAfter: -.infinity))
        #expect(layout.firstRow(endingAfter: .nan) >= 0)
    }
}
