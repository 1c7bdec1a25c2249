/// The heights of a list's rows, stored so that an edit costs little however long the list is
/// (docs/design.md §12 "Row changes") and a row is found by position with a binary search.
///
/// Rows are kept in segments laid end to end. A *run* holds any number of rows of one height —
/// how lists are usually described (`count` × `height`) and how most inserts arrive — and costs
/// the same for 10 rows as for 10 million. A *chunk* holds at most ``chunkLimit`` explicit
/// heights with their own prefix sums. An edit splits at most two segments, touches one chunk,
/// and renumbers the segments after it: its cost grows with the number of segments, not rows.
///
/// Equality is by value: two lists are equal when they have the same heights in the same order,
/// however they are segmented (`uniform(count: 3, height: 44)` equals `explicit([44, 44, 44])`).
public struct RowHeights: Sendable {
    /// Explicit heights per chunk. A power of two near the point where splitting a chunk (a copy
    /// of its heights and a new prefix sum) costs about as much as renumbering the segments of a
    /// 100 000-row list.
    public static let chunkLimit = 1024

    struct Segment: Sendable {
        /// Index of the segment's first row.
        var firstRow: Int
        /// Where that row starts, px, relative to the rows' top: the previous segment's start
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

    var segments: [Segment]
    /// The number of rows.
    public private(set) var count: Int
    /// The rows' total length, px: the content's ideal length is the rows' top plus this.
    public private(set) var totalHeight: Double
    /// How many rows have a height of their own (in chunks, not runs).
    public internal(set) var explicitCount: Int

    init(segments: [Segment]) {
        self.segments = segments
        count = 0
        totalHeight = 0
        explicitCount = Self.explicitCount(of: segments[...])
        renumber(from: 0)
    }

    /// What the heights take to store, in entries: one per explicit height and one per segment
    /// (a run of any length is one). ``Limits/storedRowHeights`` bounds it over every container.
    public var storedEntries: Int { explicitCount + segments.count }

    static func explicitCount(of segments: ArraySlice<Segment>) -> Int {
        segments.reduce(0) { total, segment in
            if case .chunk = segment.kind { return total + segment.count }
            return total
        }
    }

    /// `count` rows of `height` px each (`count` × `height` in a configuration); a negative count
    /// or height counts as 0.
    public static func uniform(count: Int, height: Double) -> RowHeights {
        RowHeights(segments: count > 0 ? [Segment(firstRow: 0, start: 0, count: count, kind: .run(height: Swift.max(0, height)))] : [])
    }

    /// One height per row, px, in order; negative heights count as 0.
    public static func explicit(_ heights: [Double]) -> RowHeights {
        RowHeights(segments: chunks(heights.map { Swift.max(0, $0) }))
    }

    /// The height every row has, when the rows are one run of equal heights (as
    /// ``uniform(count:height:)`` makes them); nil for explicit heights and for no rows.
    public var uniformHeight: Double? {
        guard segments.count == 1, case .run(let height) = segments[0].kind else { return nil }
        return height
    }

    /// The height of row `row` (0 ≤ row < count), px.
    public subscript(row: Int) -> Double {
        let s = segmentIndex(ofRow: row)
        return segments[s].height(row - segments[s].firstRow)
    }

    /// Where row `row` starts (0 ≤ row ≤ count; `count` gives ``totalHeight``), px, relative to
    /// the rows' top.
    @inline(never)
    public func offset(ofRow row: Int) -> Double {
        guard row < count else { return totalHeight }
        let s = segmentIndex(ofRow: row)
        return segments[s].start + segments[s].localStart(row - segments[s].firstRow)
    }

    /// Where row `row` ends (0 ≤ row < count), px, relative to the rows' top: the next row's
    /// start, bit for bit.
    @inline(never)
    func endOffset(ofRow row: Int) -> Double {
        let s = segmentIndex(ofRow: row)
        return segments[s].start + segments[s].localStart(row + 1 - segments[s].firstRow)
    }

    /// The segment holding row `row` (0 ≤ row < count).
    func segmentIndex(ofRow row: Int) -> Int {
        var lo = 0, hi = segments.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if segments[mid].firstRow <= row { lo = mid } else { hi = mid - 1 }
        }
        return lo
    }

    /// The first row whose end, `top + offset`, lies beyond `position` (count if none). Compared
    /// in absolute coordinates, as the rows' ends are, so that the answer is exact.
    func firstRow(endingAfter position: Double, top: Double) -> Int {
        // The first segment whose end lies beyond the position…
        var lo = 0, hi = segments.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if top + end(ofSegment: mid) > position { hi = mid } else { lo = mid + 1 }
        }
        guard lo < segments.count else { return count }
        // …and in it, the first row. Its last row ends where the segment does, beyond the
        // position, so the search stays inside it.
        let segment = segments[lo]
        var first = 0, last = segment.count - 1
        while first < last {
            let mid = (first + last) / 2
            if top + (segment.start + segment.localStart(mid + 1)) > position { last = mid } else { first = mid + 1 }
        }
        return segment.firstRow + first
    }

    /// Where segment `s` ends relative to the rows' top: the next segment's start.
    @inline(__always)
    func end(ofSegment s: Int) -> Double {
        s + 1 < segments.count ? segments[s + 1].start : totalHeight
    }

    /// Recomputes every segment's first row and start from segment `s` on, and the totals.
    mutating func renumber(from s: Int) {
        var index = s
        while index < segments.count {
            if index == 0 {
                segments[0].firstRow = 0
                segments[0].start = 0
            } else {
                let previous = segments[index - 1]
                segments[index].firstRow = previous.firstRow + previous.count
                segments[index].start = previous.start + previous.length
            }
            index += 1
        }
        if let last = segments.last {
            count = last.firstRow + last.count
            totalHeight = last.start + last.length
        } else {
            count = 0
            totalHeight = 0
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

    /// One chunk of explicit heights with its prefix sums; numbered later by ``renumber(from:)``.
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
