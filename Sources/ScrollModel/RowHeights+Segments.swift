extension RowHeights {
    /// Rows of one height (a run) or of their own heights (a chunk), numbered within the
    /// ``SegmentList`` that holds it.
    struct Segment: RowSpan, Sendable {
        /// Index of the segment's first row, from the start of its list.
        var firstRow: Int
        /// Where that row starts, px, from the start of its list: the previous segment's start
        /// plus its length (0 for the first segment).
        var start: Double
        var count: Int
        var kind: Kind

        enum Kind: Sendable {
            /// Every row has this height.
            case run(height: Double)
            /// One height per row, with `starts[i]` the start of local row `i` relative to the
            /// segment (`starts[0] = 0`, `starts[count]` its length).
            case chunk(heights: [Double], starts: [Double])
        }

        /// The segment's length, px.
        @inline(__always)
        var length: Double { localStart(count) }

        /// How many of its rows have a height of their own.
        var explicitCount: Int {
            if case .chunk = kind { return count }
            return 0
        }

        /// Start of local row `i` (0…count) relative to the segment.
        @inline(__always)
        func localStart(_ i: Int) -> Double {
            switch kind {
            case .run(let height): return Double(i) * height
            case .chunk(_, let starts): return starts[i]
            }
        }

        func height(_ i: Int) -> Double {
            switch kind {
            case .run(let height): return height
            case .chunk(let heights, _): return heights[i]
            }
        }
    }

    /// Segments laid end to end and numbered from the first: one block of a list, or the few
    /// blocks an edit works on. An edit splits at most two segments, touches one chunk, and
    /// renumbers the segments after it; a block's bounded size bounds that work.
    struct SegmentList: Sendable {
        private(set) var segments: [Segment]
        /// The number of rows.
        private(set) var count = 0
        /// The rows' length, px.
        private(set) var length = 0.0

        init(_ segments: [Segment]) {
            self.segments = segments
            renumber(from: 0)
        }

        /// How many rows have a height of their own.
        var explicitCount: Int { segments.reduce(0) { $0 + $1.explicitCount } }

        /// The segment holding row `row` (0 ≤ row < count).
        @inline(__always)
        func segmentIndex(ofRow row: Int) -> Int { segments.index(holdingRow: row) }

        /// Recomputes every segment's first row and start from segment `s` on, and the totals.
        mutating func renumber(from s: Int) {
            var firstRow = 0, start = 0.0
            if s > 0 {
                firstRow = segments[s - 1].firstRow + segments[s - 1].count
                start = segments[s - 1].start + segments[s - 1].length
            }
            for index in s..<segments.count {
                segments[index].firstRow = firstRow
                segments[index].start = start
                firstRow += segments[index].count
                start += segments[index].length
            }
            count = firstRow
            length = start
        }

        /// Inserts `new` (numbered later) before row `index` (0 ≤ index ≤ count). Rows of one
        /// height next to a run of the same height join it, so a uniform list stays uniform.
        mutating func insert(_ new: some Collection<Segment>, at index: Int) {
            guard !new.isEmpty else { return }
            let position = split(at: index)
            segments.insert(contentsOf: new, at: position)
            // Joins can only happen at the two seams; the later one first, so indices stay valid.
            mergeIfPossible(position + new.count - 1)
            mergeIfPossible(position - 1)
            renumber(from: Swift.max(0, position - 1))
        }

        /// Removes the rows in `range` (within 0..<count); the others keep their heights.
        mutating func remove(_ range: Range<Int>) {
            guard !range.isEmpty else { return }
            let from = split(at: range.lowerBound)
            let to = split(at: range.upperBound)
            segments.removeSubrange(from..<to)
            mergeIfPossible(from - 1)
            renumber(from: Swift.max(0, from - 1))
        }

        /// Makes row `index` the first of a segment and returns that segment's position
        /// (`segments.count` when `index == count`). Splitting a chunk copies at most
        /// ``RowHeights/chunkLimit`` heights.
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
                right = RowHeights.chunk(Array(heights[local...]))
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
            case let (.chunk(h1, _), .chunk(h2, _)) where a.count + b.count <= RowHeights.chunkLimit:
                var merged = RowHeights.chunk(h1 + h2)
                merged.firstRow = a.firstRow
                merged.start = a.start
                segments[s] = merged
            default:
                return
            }
            segments.remove(at: s + 1)
        }
    }

    /// Explicit heights (already made non-negative) as chunks of at most ``chunkLimit`` rows.
    static func chunks(_ heights: [Double]) -> [Segment] {
        var segments: [Segment] = []
        segments.reserveCapacity((heights.count + chunkLimit - 1) / chunkLimit)
        var from = 0
        while from < heights.count {
            let to = Swift.min(from + chunkLimit, heights.count)
            segments.append(chunk(Array(heights[from..<to])))
            from = to
        }
        return segments
    }

    /// One chunk of explicit heights with its prefix sums; numbered later by its list.
    static func chunk(_ heights: [Double]) -> Segment {
        var starts = [Double]()
        starts.reserveCapacity(heights.count + 1)
        var sum = 0.0
        starts.append(0)
        for height in heights {
            sum += height
            starts.append(sum)
        }
        return Segment(firstRow: 0, start: 0, count: heights.count, kind: .chunk(heights: heights, starts: starts))
    }
}

/// Rows from `firstRow` on: a segment, or a block of segments.
protocol RowSpan {
    var firstRow: Int { get }
}

extension Array where Element: RowSpan {
    /// The element holding row `row`: the last whose first row is at or before it, found by a
    /// binary search (the elements in order of their rows, the first one's at or before `row`).
    func index(holdingRow row: Int) -> Int {
        var lo = 0, hi = count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if self[mid].firstRow <= row { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }
}
