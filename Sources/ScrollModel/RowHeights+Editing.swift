extension RowHeights {
    /// Inserts `rows` before row `index` (0 ≤ index ≤ count; `count` appends). The rows around
    /// keep their heights; rows of one height next to a run of the same height join it, so a
    /// uniform list stays uniform.
    mutating func insert(_ rows: RowHeights, at index: Int) {
        guard rows.count > 0 else { return }
        let position = split(at: index)
        segments.insert(contentsOf: rows.segments, at: position)
        explicitCount += rows.explicitCount
        let end = position + rows.segments.count
        // Joins can only happen at the two seams; the later one first, so indices stay valid.
        mergeIfPossible(end - 1)
        mergeIfPossible(position - 1)
        renumber(from: Swift.max(0, position - 1))
    }

    /// Removes the rows in `range` (within 0..<count); the others keep their heights.
    mutating func remove(_ range: Range<Int>) {
        guard !range.isEmpty else { return }
        let from = split(at: range.lowerBound)
        let to = split(at: range.upperBound)
        explicitCount -= Self.explicitCount(of: segments[from..<to])
        segments.removeSubrange(from..<to)
        mergeIfPossible(from - 1)
        renumber(from: Swift.max(0, from - 1))
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

    /// Makes row `index` the first of a segment and returns that segment's position
    /// (`segments.count` when `index == count`). Splitting a chunk copies at most
    /// ``chunkLimit`` heights.
    mutating func split(at index: Int) -> Int {
        guard index < count else { return segments.count }
        let s = segmentIndex(ofRow: index)
        let segment = segments[s]
        let local = index - segment.firstRow
        guard local > 0 else { return s }
        let left: Segment, right: Segment
        switch segment.kind {
        case .run(let height):
            left = Segment(firstRow: segment.firstRow, start: segment.start, count: local, kind: .run(height: height))
            right = Segment(firstRow: index, start: 0, count: segment.count - local, kind: .run(height: height))
        case .chunk(let heights, let starts):
            // The left part keeps its prefix sums as they were; the right one starts afresh.
            left = Segment(firstRow: segment.firstRow, start: segment.start, count: local, kind: .chunk(heights: Array(heights[..<local]), starts: Array(starts[...local])))
            right = Self.chunk(Array(heights[local...]))
        }
        // Numbered as `renumber(from:)` would: the segments after keep their rows and starts.
        var placed = right
        placed.firstRow = index
        placed.start = left.start + left.length
        segments.replaceSubrange(s...s, with: [left, placed])
        return s + 1
    }

    /// Joins segments `s` and `s + 1` when they are runs of one height, or chunks that fit in one.
    mutating func mergeIfPossible(_ s: Int) {
        guard s >= 0, s + 1 < segments.count else { return }
        let a = segments[s], b = segments[s + 1]
        switch (a.kind, b.kind) {
        case let (.run(h1), .run(h2)) where h1 == h2:
            segments[s].count = a.count + b.count
        case let (.chunk(h1, _), .chunk(h2, _)) where a.count + b.count <= Self.chunkLimit:
            var merged = Self.chunk(h1 + h2)
            merged.firstRow = a.firstRow
            merged.start = a.start
            segments[s] = merged
        default:
            return
        }
        segments.remove(at: s + 1)
    }
}

extension RowHeights: Hashable {
    /// Equal when both hold the same heights in the same order, compared run by run: two long
    /// runs compare in one step, however they are segmented.
    public static func == (lhs: RowHeights, rhs: RowHeights) -> Bool {
        guard lhs.count == rhs.count else { return false }
        // The same storage (a configuration compared with the one it was copied from).
        let same = lhs.segments.withUnsafeBufferPointer { a in rhs.segments.withUnsafeBufferPointer { b in a.baseAddress == b.baseAddress } }
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
    public var runs: Runs { Runs(segments: segments) }

    /// The heights as `(count, height)` runs (``runs``).
    public struct Runs: Sequence, IteratorProtocol {
        let segments: [Segment]
        var segment = 0
        var row = 0

        init(segments: [Segment]) { self.segments = segments }

        /// The next run, nil after the last.
        public mutating func next() -> (count: Int, height: Double)? {
            while segment < segments.count {
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
