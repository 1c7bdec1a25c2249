extension ScrollContainer {
    /// `scrollTo` a position (docs/design.md §12): coordinates, a row with or without an anchor, an
    /// edge. Returns whether anything was set in motion (or moved at once); false when nothing
    /// needed to move — a row already wholly inside the usable area without an anchor — in which
    /// case the container is untouched and a daemon publishes no state.
    ///
    /// With an anchor A the row's target is `y* = r_N + A·h_N − a_lo − m − A·L`, clamped to
    /// `[lo, hi]`: the point at fraction A of the row meets the point at fraction A of the usable
    /// area. Without one the scroll is minimal: nothing when the row lies wholly inside `U(y)`
    /// at the shown offset `y` now; else A = 0 when it starts above `U(y)` or is longer than `L`,
    /// else A = 1. An edge goes to its axis' `lo` or `hi`. Coordinates on an axis the container
    /// does not scroll are ignored, as for plain `scrollTo`.
    ///
    /// Errors, checked before anything changes: a row without rows or outside `[0, count)`, an
    /// anchor without a row, a row or edge together with a coordinate (or each other) for the
    /// same axis, an edge of an axis the container does not scroll.
    @discardableResult
    public mutating func scroll(to position: ScrollPosition, animation: ScrollAnimation, at time: Timestamp) throws(ScrollPositionError) -> Bool {
        let listAxis = configuration.listAxis
        if position.anchor != nil && position.row == nil { throw .anchorWithoutRow }
        if let edge = position.edge {
            guard scrolls(edge.axis) else { throw .edgeNotScrolled(edge) }
            if position.point[edge.axis] != nil { throw .conflictingTargets(edge.axis, first: "edge", second: Self.coordinateName(edge.axis)) }
        }
        if let row = position.row {
            guard let rows = rowLayout else { throw .noRows }
            guard row >= 0, row < rows.count else { throw .rowOutOfRange(row: row, count: rows.count) }
            if position.point[listAxis] != nil { throw .conflictingTargets(listAxis, first: "row", second: Self.coordinateName(listAxis)) }
            if position.edge?.axis == listAxis { throw .conflictingTargets(listAxis, first: "row", second: "edge") }
        }
        advance(to: time)
        var target = position.point
        if let edge = position.edge { target[edge.axis] = edge.offset(in: range(edge.axis)) }
        if let row = position.row { target[listAxis] = rowTarget(row, anchor: position.anchor, along: listAxis) }
        guard Axis.allCases.contains(where: { scrolls($0) && target[$0]?.isFinite == true }) else {
            layout()
            return false
        }
        scroll(to: target, animation: animation, at: time)
        return true
    }

    /// The offset that brings row `row` into the usable area at `anchor`, clamped to the resting
    /// range; nil when, without an anchor, the row is already wholly inside it.
    func rowTarget(_ row: Int, anchor: ScrollAnchor?, along axis: Axis) -> Double? {
        guard let rows = rowLayout else { return nil }
        let top = rows.start(row), height = rows.height(row)
        let a = anchor?.fraction ?? {
            let area = usableArea(at: position[axis], axis)
            if top >= area.lowerBound && rows.end(row) <= area.upperBound { return nil }
            return top < area.lowerBound || height > usableLength(axis) ? 0 : 1
        }()
        guard let a else { return nil }
        let m = configuration.header?.minHeight ?? 0
        let target = top + a * height - contentInsets.leadingEdge(axis) - m - a * usableLength(axis)
        return Math.clamp(target, range(axis))
    }

    static func coordinateName(_ axis: Axis) -> String { axis == .vertical ? "y" : "x" }
}
