extension ScrollContainer {
    /// docs/design.md §18 `detent` in a container with rows along `axis`: from `base` (the running
    /// wheel target, else the offset), `steps` whole steps (±) to the next or previous row top, the
    /// same tops the `rows` scroll target aims at. Past the last row top a step goes to the end
    /// of the resting range, before the first to its start; the caller clamps.
    func detentTarget(from base: Double, steps: Double, _ axis: Axis) -> Double {
        guard let rows = rowLayout else { return base }
        let range = self.range(axis)
        var y = Math.clamp(base, range)
        var remaining = abs(steps)
        while remaining >= 1 {
            let next = steps > 0 ? rows.rowTop(after: y) ?? range.upperBound : rows.rowTop(before: y) ?? range.lowerBound
            guard next != y else { break }
            y = Math.clamp(next, range)
            remaining -= 1
        }
        return y
    }
}

extension RowLayout {
    /// Offsets within this distance of a row top count as on it, px (the settle tolerance): a
    /// detent step from 43.8 goes past the row top at 44, not to it.
    static let rowTopTolerance = 0.5

    /// The first row boundary (a row's top, or the last row's end) beyond `y` by more than the
    /// tolerance; nil past the last one.
    public func rowTop(after y: Double) -> Double? {
        guard count > 0 else { return nil }
        let probe = y + Self.rowTopTolerance
        let i = firstRow(endingAfter: probe)
        guard i < count else { return nil }
        return start(i) > probe ? start(i) : end(i)
    }

    /// The last row boundary (a row's top, or the last row's end) before `y` by more than the
    /// tolerance; nil before the first row's top.
    public func rowTop(before y: Double) -> Double? {
        guard count > 0 else { return nil }
        let probe = y - Self.rowTopTolerance
        guard probe >= start(0) else { return nil }
        let i = firstRow(endingAfter: probe)
        guard i < count else { return end(count - 1) }
        return start(i)
    }
}
