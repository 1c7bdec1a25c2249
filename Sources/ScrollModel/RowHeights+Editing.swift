extension RowHeights {
    /// Inserts `rows` before row `index` (0 ≤ index ≤ count; `count` appends). The rows around
    /// keep their heights; rows of one height next to a run of the same height join it, so a
    /// uniform list stays uniform.
    mutating func insert(_ rows: RowHeights, at index: Int) {
        guard rows.count > 0 else { return }
        edit(rows: index...index) { list, firstRow in
            list.insert(rows.blocks.lazy.flatMap(\.list.segments), at: index - firstRow)
        }
    }

    /// Removes the rows in `range` (within 0..<count); the others keep their heights.
    mutating func remove(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        edit(rows: range.lowerBound...range.upperBound) { list, firstRow in
            list.remove((range.lowerBound - firstRow)..<(range.upperBound - firstRow))
        }
    }

    /// Rows of explicit heights for an insert: one run when they are all equal (so inserting
    /// rows of the list's height keeps a uniform list uniform), else chunks.
    static func inserted(_ heights: [Double]) -> RowHeights {
        let clamped = heights.map { Swift.max(0, $0) }
        if let first = clamped.first, clamped.allSatisfy({ $0 == first }) {
            return .uniform(count: clamped.count, height: first)
        }
        return RowHeights(segments: chunks(clamped))
    }

    /// Runs `change` on the blocks that hold `rows` and on one neighbour at each side (so that
    /// segments can join across a seam, and small blocks merge), as one list numbered from its
    /// first row, then lays that list out in blocks again and moves the blocks after it.
    private mutating func edit(rows: ClosedRange<Int>, _ change: (inout SegmentList, _ firstRow: Int) -> Void) {
        var window = 0..<0
        if !blocks.isEmpty {
            let first = blockIndex(ofRow: Swift.min(rows.lowerBound, count - 1))
            let last = blockIndex(ofRow: Swift.min(rows.upperBound, count - 1))
            window = Swift.max(0, first - 1)..<Swift.min(blocks.count, last + 2)
        }
        let firstRow = window.isEmpty ? 0 : blocks[window.lowerBound].firstRow
        var list = SegmentList(blocks[window].flatMap(\.list.segments))
        let before = (segments: list.segments.count, explicit: list.explicitCount)
        change(&list, firstRow)
        segmentCount += list.segments.count - before.segments
        explicitCount += list.explicitCount - before.explicit
        blocks.replaceSubrange(window, with: Self.blocks(of: list))
        renumberBlocks(from: window.lowerBound)
    }
}

extension RowHeights: Hashable {
    /// Equal when both hold the same heights in the same order, compared run by run: two long
    /// runs compare in one step, however they are segmented.
    public static func == (lhs: RowHeights, rhs: RowHeights) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // The same storage (a configuration compared with the one it was copied from).
        let same = lhs.blocks.withUnsafeBufferPointer { a in rhs.blocks.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
        if same { return true }
        var a = lhs.runs, b = rhs.runs
        var runA = a.next(), runB = b.next()
        while let (countA, heightA) = runA, let (countB, heightB) = runB {
            guard heightA == heightB else { return false }
            let step = Swift.min(countA, countB)
            runA = countA > step ? (countA - step, heightA) : a.next()
            runB = countB > step ? (countB - step, heightB) : b.next()
        }
        return runA == nil && runB == nil
    }

    /// Hashes the number of rows only: equal lists may be segmented, and so summed, differently.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(count)
    }

    /// The heights as `(count, height)` runs, in order: a run of equal heights whole, explicit
    /// heights one by one. A compact way to write the rows down (a uniform list is one run).
    public var runs: Runs { Runs(blocks: blocks) }

    /// The heights as `(count, height)` runs (``runs``).
    public struct Runs: Sequence, IteratorProtocol {
        let blocks: [Block]
        var block = 0
        var segment = 0
        var row = 0

        init(blocks: [Block]) { self.blocks = blocks }

        /// The next run, nil after the last.
        public mutating func next() -> (count: Int, height: Double)? {
            while block < blocks.count {
                let segments = blocks[block].list.segments
                guard segment < segments.count else {
                    block += 1
                    segment = 0
                    continue
                }
                switch segments[segment].kind {
                case .run(let height):
                    segment += 1
                    return (segments[segment - 1].count, height)
                case .chunk(let heights, _):
                    if row < heights.count {
                        row += 1
                        return (1, heights[row - 1])
                    }
                    segment += 1
                    row = 0
                }
            }
            return nil
        }
    }
}

extension RowHeights: RandomAccessCollection {
    /// 0.
    public var startIndex: Int { 0 }
    /// ``count``.
    public var endIndex: Int { count }
}
