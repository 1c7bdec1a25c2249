/// The snap points of a scroll target along one axis (docs/design.md §5 "Scroll targets", §22):
/// page boundaries (multiples of the page from `lo`) or row tops, each clamped into the resting
/// range, numbered so that a fling's next one is one index on.
struct SnapPoints {
    enum Grid {
        /// Page boundaries every `page` px from the range's start.
        case pages(Double)
        /// The rows' tops.
        case rows(RowLayout)
    }

    let grid: Grid
    let range: ClosedRange<Double>

    /// Indices beyond this are all the range's end: keeps the conversion to `Int` finite.
    private static let maximumIndex = 1e12

    /// The index of the snap point nearest `z` (for pages, `round((z − lo) / page)`, as the
    /// paging rule counts; for rows, the nearest row top).
    func nearest(to z: Double) -> Int {
        switch grid {
        case let .pages(page):
            let q = ((z - range.lowerBound) / page).rounded()
            return Int(Math.clamp(q.isNaN ? 0 : q, -Self.maximumIndex...Self.maximumIndex))
        case let .rows(rows):
            guard rows.count > 0 else { return 0 }
            let i = min(rows.firstRow(endingAfter: z), rows.count - 1)
            var best = i
            if i + 1 < rows.count, abs(rows.start(i + 1) - z) < abs(rows.start(best) - z) { best = i + 1 }
            if i > 0, abs(rows.start(i - 1) - z) < abs(rows.start(best) - z) { best = i - 1 }
            return best
        }
    }

    /// The snap point of index `i`, clamped into the range (rows outside `[0, count)` are the
    /// first or last row's top).
    func point(_ i: Int) -> Double {
        switch grid {
        case let .pages(page):
            return Math.clamp(range.lowerBound + Double(i) * page, range)
        case let .rows(rows):
            guard rows.count > 0 else { return range.lowerBound }
            return Math.clamp(rows.start(min(max(i, 0), rows.count - 1)), range)
        }
    }
}

extension ScrollContainer {
    /// The snap points along `axis`; nil without a scroll target there (or with pages of no
    /// length).
    func snapPoints(_ axis: Axis) -> SnapPoints? {
        guard aimsAtScrollTarget(axis) else { return nil }
        switch configuration.scrollTarget {
        case .none:
            return nil
        case .paging:
            let page = containerSize[axis]
            guard page > 0 else { return nil }
            return SnapPoints(grid: .pages(page), range: range(axis))
        case .rows:
            guard let rows = rowLayout else { return nil }
            return SnapPoints(grid: .rows(rows), range: range(axis))
        }
    }

    /// Where a gesture that started at `origin` and would come to rest at `endPoint` ends along
    /// `axis`, nil when it does not snap (docs/design.md §5 "Scroll targets", §22):
    ///
    /// - `snap_stop` and a fling (`fling` ≠ 0, its release velocity): the first snap point in the
    ///   fling's direction beyond the one nearest the release position;
    /// - `snap_type = mandatory`: paging, the page boundary nearest `endPoint` at most one page
    ///   from the page the gesture started on; rows, the row top nearest `endPoint`;
    /// - `snap_type = proximity`: the snap point nearest the natural resting point (`endPoint`
    ///   clamped into the resting range) when it lies within `snap_proximity` of it, else nil.
    func snapTarget(_ axis: Axis, origin: Double, endPoint: Double, fling: Double) -> Double? {
        guard let points = snapPoints(axis) else { return nil }
        let gestures = configuration.gestures
        if gestures.snapStop && fling != 0 {
            return points.point(points.nearest(to: position[axis]) + (fling > 0 ? 1 : -1))
        }
        switch gestures.snapType {
        case .mandatory:
            guard case .pages = points.grid else { return points.point(points.nearest(to: endPoint)) }
            let start = points.nearest(to: origin)
            let end = points.nearest(to: endPoint)
            return points.point(min(max(end, start - 1), start + 1))
        case .proximity:
            let rest = Math.clamp(endPoint, points.range)
            let point = points.point(points.nearest(to: rest))
            let distance = gestures.snapProximity ?? containerSize[axis] / 3
            return abs(rest - point) <= distance ? point : nil
        }
    }
}
