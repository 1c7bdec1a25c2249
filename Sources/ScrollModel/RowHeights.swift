/// The heights of a list's rows, stored so that an edit costs little however long the list is
/// and however it was edited (docs/design.md §12 "Row changes"), and a row is found by
/// position with a binary search.
///
/// Rows are kept in segments laid end to end. A *run* holds any number of rows of one height —
/// how lists are usually described (`count` × `height`) and how most inserts arrive — and costs
/// the same for 10 rows as for 10 million. A *chunk* holds at most ``chunkLimit`` explicit
/// heights with their own prefix sums. Segments are grouped in *blocks* of at most
/// ``blockLimit``, each numbered from its own start: an edit renumbers the segments of the
/// blocks it touches and moves the blocks after it, so its cost grows with the size of a block
/// and the number of blocks, never with the number of segments (a client appending one-row runs
/// of alternating heights makes one segment per row).
///
/// Equality is by value: two lists are equal when they have the same heights in the same order,
/// however they are segmented (`uniform(count: 3, height: 44)` equals `explicit([44, 44, 44])`).
public struct RowHeights: Sendable {
    /// Explicit heights per chunk. A power of two near the point where splitting a chunk (a copy
    /// of its heights and a new prefix sum) costs about as much as renumbering a block.
    public static let chunkLimit = 1024

    /// Segments per block. A list of up to this many segments is one block, whose offsets are
    /// plain running sums; an edit that leaves more lays them out again in blocks about half
    /// full, so that the next edits in them fit.
    static let blockLimit = 1024

    /// A block of segments and where it lies in the list.
    struct Block: RowSpan, Sendable {
        /// Index of its first row in the list.
        var firstRow: Int
        /// Where its first row starts, px, relative to the rows' top: the previous block's start
        /// plus its length.
        var start: Double
        /// Its segments, numbered from the block's start.
        var list: SegmentList
    }

    var blocks: [Block]
    /// The number of rows.
    public private(set) var count: Int
    /// The rows' total length, px: the content's ideal length is the rows' top plus this.
    public private(set) var totalHeight: Double
    /// How many rows have a height of their own (in chunks, not runs).
    public internal(set) var explicitCount: Int
    /// How many segments the blocks hold.
    var segmentCount: Int

    init(segments: [Segment]) {
        let list = SegmentList(segments)
        blocks = Self.blocks(of: list)
        count = 0
        totalHeight = 0
        explicitCount = list.explicitCount
        segmentCount = segments.count
        renumberBlocks(from: 0)
    }

    /// What the heights take to store, in entries: one per explicit height and one per segment
    /// (a run of any length is one). ``Limits/storedRowHeights`` bounds it over every container.
    public var storedEntries: Int { explicitCount + segmentCount }

    /// `count` rows of `height` px each (`count` × `height` in a configuration); a negative count
    /// or height counts as 0.
    public static func uniform(count: Int, height: Double) -> RowHeights {
        RowHeights(segments: count > 0 ? [Segment(firstRow: 0, start: 0, count: count, kind: .run(height: Swift.max(0, height)))] : [])
    }

    /// Runs of equal heights, `(count, height)` in order, as ``runs`` writes them down: each run
    /// is stored as one entry, however long. Negative counts and heights count as 0.
    public static func runs(_ runs: some Sequence<(count: Int, height: Double)>) -> RowHeights {
        RowHeights(segments: runs.compactMap { run in
            run.count > 0 ? Segment(firstRow: 0, start: 0, count: run.count, kind: .run(height: Swift.max(0, run.height))) : nil
        })
    }

    /// One height per row, px, in order; negative heights count as 0.
    public static func explicit(_ heights: [Double]) -> RowHeights {
        RowHeights(segments: chunks(heights.map { Swift.max(0, $0) }))
    }

    /// The height every row has, when the rows are one run of equal heights (as
    /// ``uniform(count:height:)`` makes them); nil for explicit heights and for no rows.
    public var uniformHeight: Double? {
        guard blocks.count == 1, blocks[0].list.segments.count == 1, case .run(let height) = blocks[0].list.segments[0].kind else { return nil }
        return height
    }

    /// The height of row `row` (0 ≤ row < count), px.
    public subscript(row: Int) -> Double {
        let block = blocks[blockIndex(ofRow: row)]
        let local = row - block.firstRow
        let segment = block.list.segments[block.list.segmentIndex(ofRow: local)]
        return segment.height(local - segment.firstRow)
    }

    /// Where row `row` starts (0 ≤ row ≤ count; `count` gives ``totalHeight``), px, relative to
    /// the rows' top: its block's start plus its start in the block, summed in that order so
    /// that starts grow with the row and a segment's end is the next one's start exactly.
    @inline(never)
    public func offset(ofRow row: Int) -> Double {
        guard row < count else { return totalHeight }
        let block = blocks[blockIndex(ofRow: row)]
        let local = row - block.firstRow
        let segment = block.list.segments[block.list.segmentIndex(ofRow: local)]
        return block.start + (segment.start + segment.localStart(local - segment.firstRow))
    }

    /// Where row `row` ends (0 ≤ row < count), px, relative to the rows' top: the next row's
    /// start, bit for bit.
    @inline(never)
    func endOffset(ofRow row: Int) -> Double {
        let block = blocks[blockIndex(ofRow: row)]
        let local = row - block.firstRow
        let segment = block.list.segments[block.list.segmentIndex(ofRow: local)]
        return block.start + (segment.start + segment.localStart(local + 1 - segment.firstRow))
    }

    /// The block holding row `row` (0 ≤ row < count).
    @inline(__always)
    func blockIndex(ofRow row: Int) -> Int { blocks.index(holdingRow: row) }

    /// Where block `b` ends relative to the rows' top: the next block's start.
    @inline(__always)
    func end(ofBlock b: Int) -> Double {
        b + 1 < blocks.count ? blocks[b + 1].start : totalHeight
    }

    /// The first row whose end, `top + offset`, lies beyond `position` (count if none). Compared
    /// in absolute coordinates, as the rows' ends are, so that the answer is exact.
    func firstRow(endingAfter position: Double, top: Double) -> Int {
        // The first block whose end lies beyond the position…
        var lo = 0, hi = blocks.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if top + end(ofBlock: mid) > position { hi = mid } else { lo = mid + 1 }
        }
        guard lo < blocks.count else { return count }
        let block = blocks[lo], blockEnd = end(ofBlock: lo)
        // …in it, the first segment whose end does (the last one's is the block's)…
        let segments = block.list.segments
        var s = 0, last = segments.count - 1
        while s < last {
            let mid = (s + last) / 2
            let end = mid + 1 < segments.count ? block.start + segments[mid + 1].start : blockEnd
            if top + end > position { last = mid } else { s = mid + 1 }
        }
        // …and in that, the first row. Its last row ends where the segment does, beyond the
        // position, so the search stays inside it.
        let segment = segments[s]
        var first = 0, final = segment.count - 1
        while first < final {
            let mid = (first + final) / 2
            if top + (block.start + (segment.start + segment.localStart(mid + 1))) > position { final = mid } else { first = mid + 1 }
        }
        return block.firstRow + segment.firstRow + first
    }

    /// Recomputes every block's first row and start from block `b` on, and the totals.
    mutating func renumberBlocks(from b: Int) {
        var firstRow = 0, start = 0.0
        if b > 0 {
            firstRow = blocks[b - 1].firstRow + blocks[b - 1].list.count
            start = blocks[b - 1].start + blocks[b - 1].list.length
        }
        for index in b..<blocks.count {
            blocks[index].firstRow = firstRow
            blocks[index].start = start
            firstRow += blocks[index].list.count
            start += blocks[index].list.length
        }
        count = firstRow
        totalHeight = start
    }

    /// `list` as blocks, numbered later by ``renumberBlocks(from:)``: one block when it fits,
    /// else blocks about half full (at least a quarter).
    static func blocks(of list: SegmentList) -> [Block] {
        let segments = list.segments
        guard !segments.isEmpty else { return [] }
        guard segments.count > blockLimit else { return [Block(firstRow: 0, start: 0, list: list)] }
        let pieces = (segments.count + blockLimit / 2 - 1) / (blockLimit / 2)
        return (0..<pieces).map { piece in
            let range = (segments.count * piece / pieces)..<(segments.count * (piece + 1) / pieces)
            return Block(firstRow: 0, start: 0, list: SegmentList(Array(segments[range])))
        }
    }
}
