/// The first and last visible row; both nil when no row is visible.
public struct VisibleRows: Hashable, Sendable {
    /// Index (from 0) of the first visible row; nil when no row is visible.
    public var first: Int?
    /// Index (from 0) of the last visible row, ≥ `first`; nil when no row is visible.
    public var last: Int?

    /// Creates a range of visible rows; pass nil for both when none is visible.
    public init(first: Int?, last: Int?) {
        self.first = first
        self.last = last
    }

    /// No row is visible (`{"first":null,"last":null}` in a state). Not `none`: where a
    /// `VisibleRows?` is expected (a container without rows is nil), `.none` is Optional's.
    public static let empty = VisibleRows(first: nil, last: nil)

    /// No row is visible.
    @available(*, deprecated, renamed: "empty", message: "in a VisibleRows? context .none means no rows at all; use .empty")
    public static var none: VisibleRows { empty }
}

/// Rows laid out along the list axis. Uniform rows are found by division and others by binary
/// search over ``RowHeights``' segments, so 10 000 rows cost the same per event as 10.
public struct RowLayout: Hashable, Sendable {
    /// Content coordinate of the first row's top, px: the configured `top`, or the default it was
    /// laid out with.
    public let top: Double
    /// The fraction of its height (0…1) a row must have inside the viewport, strictly more than,
    /// to be visible.
    public let threshold: Double
    /// The number of rows.
    public let count: Int
    /// What visibility is measured against: the viewport or the usable area.
    public let visibleIn: RowVisibilityArea
    /// Uniform rows need no search: the fast path every event of a plain list takes.
    let uniformHeight: Double?
    /// The heights, shared with the configuration they came from (no copy per layout).
    let heights: RowHeights
    /// The sticky rows' indices, ascending (shared with the configuration).
    let sticky: [Int]
    /// How many of ``sticky`` name rows the list has: those past the end are ignored.
    let stickyCount: Int

    /// Lays out `configuration`'s rows from `configuration.top`, or from `defaultTop` (the
    /// header's max height, else 0) when that is nil.
    public init(_ configuration: RowsConfiguration, defaultTop: Double) {
        top = configuration.top ?? defaultTop
        threshold = configuration.threshold
        visibleIn = configuration.visibleIn
        heights = configuration.heights
        count = heights.count
        uniformHeight = heights.uniformHeight
        sticky = configuration.sticky
        stickyCount = Self.stickyCount(configuration.sticky, rows: heights.count)
    }

    /// The rows' total length: the content's ideal length is `top + totalHeight`.
    public var totalHeight: Double {
        if let h = uniformHeight { return Double(count) * h }
        return heights.totalHeight
    }

    /// Where row `i` starts, in content coordinates (0 ≤ i ≤ count; `count` gives the end of the
    /// last row). Always inlined: uniform rows take this on every published state, and a call
    /// there costs more than the multiplication (the search for other rows stays a call).
    @inline(__always)
    public func start(_ i: Int) -> Double {
        if let h = uniformHeight { return top + Double(i) * h }
        return top + heights.offset(ofRow: i)
    }

    /// Where row `i` ends, in content coordinates (0 ≤ i < count); inlined as ``start(_:)``.
    @inline(__always)
    public func end(_ i: Int) -> Double {
        if let h = uniformHeight { return top + Double(i + 1) * h }
        return top + heights.endOffset(ofRow: i)
    }

    /// Row `i`'s height as given (0 ≤ i < count), px: `h_i` of docs/design.md §12.
    public func height(_ i: Int) -> Double {
        uniformHeight ?? heights[i]
    }

    /// Whether more than `threshold` of row i's height lies inside `[lo, hi]`.
    func isVisible(_ i: Int, _ lo: Double, _ hi: Double) -> Bool {
        let a = start(i), b = end(i)
        let height = b - a
        let inside = min(b, hi) - max(a, lo)
        return inside > threshold * height && inside > 0
    }

    /// The index of the first row whose end lies beyond `position` (count if none).
    ///
    /// Always inlined: `visibleRows` calls it twice per published state, and inlined it shares
    /// the layout's fields with its caller instead of reloading them behind a call.
    @inline(__always)
    func firstRow(endingAfter position: Double) -> Int {
        if let h = uniformHeight {
            guard h > 0 else { return count }
            // A guess from the division, which the walks below make exact (rounding can leave
            // it a row off). Bounded before converting (`!(q > 0)` also takes NaN), and
            // truncated rather than floored, which costs a libm call per event.
            let q = (position - top) / h
            var index = !(q > 0) ? 0 : q < Double(count) ? Int(q) : count
            while index < count && end(index) <= position { index += 1 }
            while index > 0 && end(index - 1) > position { index -= 1 }
            return index
        }
        return heights.firstRow(endingAfter: position, top: top)
    }

    /// The visible rows for a viewport `[offset, offset + length]` in content coordinates.
    /// Visible rows are contiguous: rows fully inside are visible, and only the two rows
    /// crossing the viewport's ends can fall short of the threshold.
    public func visibleRows(offset: Double, length: Double) -> VisibleRows {
        visibleRows(from: offset, to: offset + length)
    }

    /// The visible rows for the area `[lo, hi]` in content coordinates (none when it is empty).
    @inline(__always)
    public func visibleRows(from lo: Double, to hi: Double) -> VisibleRows {
        var first = firstRow(endingAfter: lo)
        // The row at the top edge may show too little of itself, and rows of no height never
        // count: step past them to the first visible one.
        while first < count, start(first) < hi, !isVisible(first, lo, hi) { first = row(after: first) }
        guard first < count, start(first) < hi else { return .empty }
        var last = max(first, min(firstRow(endingAfter: hi), count - 1))
        while last > first && !isVisible(last, lo, hi) { last = max(first, row(before: last)) }
        return VisibleRows(first: first, last: last)
    }

    /// The row after `i`, past any rows of no height there at once: a run of them (cheap to
    /// store, 10⁷ in one entry) would otherwise be stepped through row by row on every state.
    /// The rows it skips start and end where the row after `i` starts, so none is visible.
    @inline(__always)
    func row(after i: Int) -> Int {
        let next = i + 1
        guard next < count, end(next) <= start(next) else { return next }
        return Swift.max(next, firstRow(endingAfter: start(next)))
    }

    /// The row before `i`, past any rows of no height there at once (``row(after:)``): the
    /// earliest row ending where they are, the one with a height before them.
    @inline(__always)
    func row(before i: Int) -> Int {
        let previous = i - 1
        guard previous > 0, end(previous) <= start(previous) else { return previous }
        return Swift.min(previous, firstRow(endingAfter: start(previous).nextDown))
    }

    /// Whether at least `threshold` (in (0, 1]) of row `row`'s height lies inside `[lo, hi]`
    /// (the `rowVisible` observation; `visibleRows` asks for strictly more). A row of no height
    /// counts when its position lies inside; a row that does not exist never does.
    public func shows(_ row: Int, atLeast threshold: Double, from lo: Double, to hi: Double) -> Bool {
        guard row >= 0, row < count else { return false }
        let a = start(row), b = end(row)
        guard b > a else { return a >= lo && a <= hi }
        return min(b, hi) - max(a, lo) >= threshold * (b - a)
    }

    /// The top of the row nearest to `position` (for the `rows` scroll target).
    public func nearestRowTop(to position: Double) -> Double {
        guard count > 0 else { return position }
        let i = min(firstRow(endingAfter: position), count - 1)
        var best = start(i)
        if i + 1 < count, abs(start(i + 1) - position) < abs(best - position) { best = start(i + 1) }
        if i > 0, abs(start(i - 1) - position) < abs(best - position) { best = start(i - 1) }
        return best
    }
}
