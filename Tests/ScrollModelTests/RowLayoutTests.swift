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

    @Test(arguments: [
        RowsConfiguration(count: 200, height: 44, top: 100),
        RowsConfiguration(count: 50, height: 0.1 + 0.2),
        RowsConfiguration(heights: .explicit([10, 0, 30, 44, 44, 7.5, 300, 1]), top: -20),
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
