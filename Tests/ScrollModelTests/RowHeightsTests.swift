@testable import ScrollModel
import Testing

/// `RowHeights` keeps rows in runs and chunks so that edits stay cheap; held here to a plain
/// array of heights edited the obvious way, and to `RowLayout`'s definition by brute force.
@Suite("Row heights and row edits")
struct RowHeightsTests {
    /// A deterministic generator (SplitMix64), so every run edits the same way.
    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
        mutating func below(_ n: Int) -> Int { n <= 0 ? 0 : Int(next() % UInt64(n)) }
    }

    func expectSameRows(_ heights: RowHeights, _ plain: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(heights.count == plain.count, sourceLocation: sourceLocation)
        #expect((0..<plain.count).allSatisfy { heights[$0] == plain[$0] }, sourceLocation: sourceLocation)
        #expect(heights == .explicit(plain), sourceLocation: sourceLocation)
        // Starts are exact for these heights (multiples of 1/4), so they equal the plain sums.
        var sum = 0.0
        for i in 0..<plain.count {
            #expect(heights.offset(ofRow: i) == sum, "row \(i)", sourceLocation: sourceLocation)
            sum += plain[i]
        }
        #expect(heights.totalHeight == sum, sourceLocation: sourceLocation)
        #expect(heights.allSegments.allSatisfy { segment in
            if case .chunk = segment.kind { return segment.count <= RowHeights.chunkLimit }
            return true
        }, sourceLocation: sourceLocation)
        expectWellFormedBlocks(heights, sourceLocation: sourceLocation)
    }

    /// Blocks hold 1…blockLimit segments, lie end to end, and count what they hold.
    func expectWellFormedBlocks(_ heights: RowHeights, sourceLocation: SourceLocation = #_sourceLocation) {
        var firstRow = 0, start = 0.0
        for block in heights.blocks {
            #expect((1...RowHeights.blockLimit).contains(block.list.segments.count), sourceLocation: sourceLocation)
            #expect(block.firstRow == firstRow && block.start == start, sourceLocation: sourceLocation)
            firstRow += block.list.count
            start += block.list.length
        }
        #expect(heights.count == firstRow && heights.totalHeight == start, sourceLocation: sourceLocation)
        #expect(heights.segmentCount == heights.allSegments.count, sourceLocation: sourceLocation)
        #expect(heights.explicitCount == heights.allSegments.reduce(0) { $0 + $1.explicitCount }, sourceLocation: sourceLocation)
    }

    /// `edit` applied the obvious way to a plain array of heights, whose rows have `height`.
    func apply(_ edit: RowEdit, to plain: inout [Double], height listHeight: Double) {
        switch edit {
        case let .insert(at, count, height):
            plain.insert(contentsOf: repeatElement(height ?? listHeight, count: count), at: at)
        case let .insertHeights(at, heights):
            plain.insert(contentsOf: heights, at: at)
        case let .remove(at, count):
            plain.removeSubrange(at..<(at + count))
        }
    }

    @Test func randomEditsKeepEveryHeightInPlace() throws {
        var random = Generator(state: 15)
        var rows = RowsConfiguration(count: 3000, height: 44)
        var plain = [Double](repeating: 44, count: 3000)
        for step in 0..<400 {
            let edit: RowEdit
            switch random.below(4) {
            case 0:
                edit = .insert(at: random.below(plain.count + 1), count: random.below(50), height: random.below(2) == 0 ? nil : Double(random.below(200)) / 4)
            case 1:
                edit = .insertHeights(at: random.below(plain.count + 1), heights: (0..<random.below(1500)).map { _ in Double(random.below(400)) / 4 })
            default:
                let at = random.below(plain.count + 1)
                edit = .remove(at: at, count: random.below(min(300, plain.count - at) + 1))
            }
            try rows.apply(edit)
            apply(edit, to: &plain, height: 44)
            if step % 40 == 0 { expectSameRows(rows.heights, plain) }
        }
        expectSameRows(rows.heights, plain)
    }

    @Test func rowsOfTheListsHeightKeepAUniformListOneRun() throws {
        var rows = RowsConfiguration(count: 100_000, height: 44)
        try rows.apply(.insert(at: 0, count: 20, height: nil))
        try rows.apply(.insert(at: 50_000, count: 5, height: 44))
        try rows.apply(.insertHeights(at: 100_025, heights: [44, 44]))
        try rows.apply(.remove(at: 10, count: 1000))
        #expect(rows.heights.allSegments.count == 1)
        #expect(rows.heights.uniformHeight == 44)
        #expect(rows.heights.count == 99_027)
        #expect(rows.heights == .uniform(count: 99_027, height: 44))
        // Another height splits the run in three; removing it joins them again.
        try rows.apply(.insert(at: 500, count: 3, height: 60))
        #expect(rows.heights.allSegments.count == 3)
        #expect(rows.heights.uniformHeight == nil)
        #expect(rows.heights.offset(ofRow: 503) == 503 * 44 + 3 * 16)
        try rows.apply(.remove(at: 500, count: 3))
        #expect(rows.heights.allSegments.count == 1)
        #expect(rows.heights.uniformHeight == 44)
    }

    @Test func equalHeightsAreEqualHoweverStored() {
        #expect(RowHeights.uniform(count: 3, height: 44) == .explicit([44, 44, 44]))
        #expect(RowHeights.uniform(count: 3, height: 44) != .explicit([44, 44, 45]))
        #expect(RowHeights.uniform(count: 3, height: 44) != .uniform(count: 4, height: 44))
        #expect(RowHeights.explicit(Array(repeating: 10, count: 5000)) == .uniform(count: 5000, height: 10))
        #expect(RowHeights.uniform(count: 0, height: 44) == .explicit([]))
        #expect(RowHeights.explicit([-5, 10]) == .explicit([0, 10]))
        #expect(RowsConfiguration(count: 3, height: 44).hashValue == RowsConfiguration(heights: .explicit([44, 44, 44]), height: 44).hashValue)
    }

    /// Explicit lists longer than a chunk are split into chunks; lookups stay exact.
    @Test func longExplicitListsFindTheirRows() {
        let plain = (0..<5000).map { Double($0 % 7) * 8 + 4 }
        let layout = RowLayout(RowsConfiguration(heights: .explicit(plain)), defaultTop: 100)
        #expect(layout.heights.allSegments.count == 5)
        for i in stride(from: 0, to: plain.count, by: 97) {
            let sum = 100 + plain[..<i].reduce(0, +)
            #expect(layout.start(i) == sum)
            #expect(layout.firstRow(endingAfter: sum) == i)
            #expect(layout.firstRow(endingAfter: sum - 0.5) == max(0, i - 1))
        }
        #expect(layout.firstRow(endingAfter: 1e9) == 5000)
        #expect(layout.firstRow(endingAfter: .nan) == 5000)
    }

    @Test(arguments: [
        [RowEdit.insert(at: 0, count: 20, height: 44)],
        [RowEdit.insertHeights(at: 3, heights: [10, 0, 30, 7.5]), .remove(at: 0, count: 2)],
        [RowEdit.insert(at: 10, count: 3, height: 0), .insertHeights(at: 40, heights: [300, 1, 1])],
    ])
    func editedLayoutsFindTheRowsTheDefinitionFinds(_ edits: [RowEdit]) throws {
        var rows = RowsConfiguration(count: 60, height: 44, top: 100)
        for edit in edits { try rows.apply(edit) }
        let layout = RowLayout(rows, defaultTop: 0)
        var offset = -200.0
        while offset < layout.top + layout.totalHeight + 200 {
            let brute = (0..<layout.count).first { layout.end($0) > offset } ?? layout.count
            #expect(layout.firstRow(endingAfter: offset) == brute, "offset \(offset)")
            let visible = (0..<layout.count).filter { layout.isVisible($0, offset, offset + 600) }
            #expect(layout.visibleRows(offset: offset, length: 600) == VisibleRows(first: visible.first, last: visible.last))
            offset += 7.3
        }
    }

    /// One-row runs of alternating heights make a segment a row: past ``RowHeights/blockLimit``
    /// segments they are kept in blocks, and edits anywhere in them, across the seams between
    /// blocks and over many blocks at once, keep every height and start in place.
    @Test func manySegmentsAreKeptInBlocks() throws {
        var random = Generator(state: 30)
        var plain = (0..<6000).map { Double(1 + $0 % 2) }
        var rows = RowsConfiguration(heights: .uniform(count: 0, height: 1), height: 1)
        for (i, height) in plain.enumerated() { try rows.apply(.insert(at: i, count: 1, height: height)) }
        #expect(rows.heights.allSegments.count == 6000)
        #expect(rows.heights.blocks.count > 6)
        expectSameRows(rows.heights, plain)
        for step in 0..<300 {
            let edit: RowEdit
            switch random.below(5) {
            case 0, 1:
                edit = .insert(at: random.below(plain.count + 1), count: 1 + random.below(3), height: Double(1 + random.below(3)))
            case 2:
                edit = .insertHeights(at: random.below(plain.count + 1), heights: (0..<random.below(2500)).map { _ in Double(random.below(40)) / 4 })
            default:
                let at = random.below(plain.count + 1)
                edit = .remove(at: at, count: random.below(min(step % 50 == 0 ? 3000 : 40, plain.count - at) + 1))
            }
            try rows.apply(edit)
            apply(edit, to: &plain, height: 1)
            if step % 30 == 0 { expectSameRows(rows.heights, plain) }
        }
        expectSameRows(rows.heights, plain)
        // Lookups by position agree with the definition, at row boundaries and between them.
        let layout = RowLayout(rows, defaultTop: 50)
        var ends: [Double] = []
        var sum = 50.0
        for height in plain {
            sum += height
            ends.append(sum)
        }
        for i in stride(from: 0, to: plain.count, by: 13) {
            #expect(layout.end(i) == ends[i])
            for position in [ends[i], ends[i] - 0.125] {
                #expect(layout.firstRow(endingAfter: position) == (ends.firstIndex { $0 > position } ?? plain.count), "position \(position)")
            }
        }
        // Removing every row but the first leaves one block again.
        try rows.apply(.remove(at: 1, count: plain.count - 1))
        #expect(rows.heights.blocks.count == 1 && rows.heights.count == 1)
    }

    @Test func editsThatDoNotFitAreRefusedNamingTheField() throws {
        let rows = RowsConfiguration(count: 100, height: 44)
        func failure(_ edit: RowEdit, of rows: RowsConfiguration = RowsConfiguration(count: 100, height: 44)) -> RowEditError? {
            do {
                _ = try rows.applying(edit)
                return nil
            } catch {
                return error
            }
        }
        #expect(failure(.insert(at: 101, count: 1, height: nil))?.field == "insert.at")
        #expect(failure(.insert(at: -1, count: 1, height: nil))?.field == "insert.at")
        #expect(failure(.insert(at: 0, count: -1, height: nil))?.field == "insert.count")
        #expect(failure(.insert(at: 0, count: 1, height: -3))?.field == "insert.height")
        #expect(failure(.insert(at: 0, count: 1, height: .infinity))?.field == "insert.height")
        #expect(failure(.insertHeights(at: 0, heights: [1, .nan]))?.field == "insert.heights")
        #expect(failure(.insertHeights(at: 200, heights: [1]))?.field == "insert.at")
        #expect(failure(.remove(at: 100, count: 1))?.field == "remove.count")
        #expect(failure(.remove(at: 101, count: 0))?.field == "remove.at")
        #expect(failure(.remove(at: 90, count: 11))?.message == "11 rows from row 90 reach past the last row (the container has 100 rows)")
        #expect(failure(.insert(at: 0, count: RowEdit.maximumRows, height: nil))?.field == "rows")
        // Rows given only as heights have no height for an insert to take.
        let explicit = RowsConfiguration(heights: .explicit([10, 20]))
        #expect(failure(.insert(at: 0, count: 1, height: nil), of: explicit)?.field == "insert.height")
        #expect(failure(.insert(at: 0, count: 1, height: 12), of: explicit) == nil)
        // Nothing to do is not an error, and a failed edit changes nothing.
        #expect(try rows.applying(.insert(at: 100, count: 0, height: nil)) == rows)
        #expect(try rows.applying(.remove(at: 100, count: 0)) == rows)
        var kept = rows
        #expect(throws: RowEditError.self) { try kept.applying(.remove(at: 50, count: 51)) }
        do { try kept.apply(.remove(at: 50, count: 51)) } catch {}
        #expect(kept == rows)
    }

    @Test func editsMapRowIndicesAcross() {
        #expect(RowEdit.insert(at: 10, count: 20, height: nil).index(after: 9) == 9)
        #expect(RowEdit.insert(at: 10, count: 20, height: nil).index(after: 10) == 30)
        #expect(RowEdit.insertHeights(at: 0, heights: [1, 2]).index(after: 0) == 2)
        #expect(RowEdit.remove(at: 10, count: 5).index(after: 9) == 9)
        #expect(RowEdit.remove(at: 10, count: 5).index(after: 12) == nil)
        #expect(RowEdit.remove(at: 10, count: 5).index(after: 15) == 10)
        #expect(RowEdit.remove(at: 10, count: 5).successor(of: 12, count: 100) == 15)
        #expect(RowEdit.remove(at: 95, count: 5).successor(of: 97, count: 100) == nil)
    }
}

extension RowHeights {
    /// Every segment, block after block.
    var allSegments: [Segment] { blocks.flatMap(\.list.segments) }
}
