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

    /// No row is visible (`{"first":null,"last":null}` in a state).
    public static let none = VisibleRows(first: nil, last: nil)
}

/// Rows laid out along the list axis, with prefix sums so that visibility is a binary search
/// (10 000 rows cost the same per event as 10).
public struct RowLayout: Hashable, Sendable {
    /// Content coordinate of the first row's top, px: the configured `top`, or the default it was
    /// laid out with.
    public let top: Double
    /// The fraction of its height (0…1) a row must have inside the viewport, strictly more than,
    /// to be visible.
    public let threshold: Double
    /// The number of rows.
    public let count: Int
    /// Uniform rows need no table.
    let uniformHeight: Double?
    /// `starts[i]` is row i's top relative to `top`; `starts[count]` is the total height.
    let starts: [Double]

    /// Lays out `configuration`'s rows from `configuration.top`, or from `defaultTop` (the
    /// header's max height, else 0) when that is nil.
    public init(_ configuration: RowsConfiguration, defaultTop: Double) {
        top = configuration.top ?? defaultTop
        threshold = configuration.threshold
        switch configuration.heights {
        case .uniform(let count, let height):
            self.count = count
            uniformHeight = height
            starts = []
        case .explicit(let heights):
            count = heights.count
            uniformHeight = nil
            var starts = [Double]()
            starts.reserveCapacity(heights.count + 1)
            var sum = 0.0
            starts.append(0)
            for height in heights {
                sum += max(0, height)
                starts.append(sum)
            }
            self.starts = starts
        }
    }

    /// The rows' total length: the content's ideal length is `top + totalHeight`.
    public var totalHeight: Double {
        if let h = uniformHeight { return Double(count) * h }
        return starts[count]
    }

    func start(_ i: Int) -> Double {
        if let h = uniformHeight { return top + Double(i) * h }
        return top + starts[i]
    }

    func end(_ i: Int) -> Double {
        if let h = uniformHeight { return top + Double(i + 1) * h }
        return top + starts[i + 1]
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
        var lo = 0, hi = count
        while lo < hi {
            let mid = (lo + hi) / 2
            if end(mid) > position { hi = mid } else { lo = mid + 1 }
        }
        return lo
    }

    /// The visible rows for a viewport `[offset, offset + length]` in content coordinates.
    /// Visible rows are contiguous: rows fully inside are visible, and only the two rows
    /// crossing the viewport's ends can fall short of the threshold.
    public func visibleRows(offset: Double, length: Double) -> VisibleRows {
        let lo = offset, hi = offset + length
        var first = firstRow(endingAfter: lo)
        // The row at the top edge may show too little of itself, and rows of no height never
        // count: step past them to the first visible one.
        while first < count, start(first) < hi, !isVisible(first, lo, hi) { first += 1 }
        guard first < count, start(first) < hi else { return .none }
        var last = max(first, min(firstRow(endingAfter: hi), count - 1))
        while last > first && !isVisible(last, lo, hi) { last -= 1 }
        return VisibleRows(first: first, last: last)
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
