/// The section header pinned at the pin line (docs/design.md §21), as CSS `position: sticky`,
/// UIKit's plain-style section headers and `LazyVStack`'s pinned section headers draw it.
public struct StickyRow: Hashable, Sendable {
    /// The pinned row's index.
    public var row: Int
    /// Where its top is drawn, in content coordinates (on screen at `top − y`): at the pin line,
    /// or higher while the next sticky row pushes it off.
    public var top: Double

    /// Creates a pinned row; containers compute theirs (``RowLayout/stickyRow(pinLine:)``).
    @inlinable
    public init(row: Int, top: Double) {
        self.row = row
        self.top = top
    }
}

extension RowLayout {
    /// The sticky row pinned at the pin line `p` (content coordinates): the last sticky row `k`
    /// with `r_k ≤ p`, drawn at `min(p, r_next − h_k)` (`r_next` the next sticky row's top; `p`
    /// without one). Nil when no sticky row starts at or above `p`.
    ///
    /// A binary search over the sticky indices: row tops grow with the index. Allocates nothing.
    @inline(__always)
    public func stickyRow(pinLine p: Double) -> StickyRow? {
        var low = 0, high = stickyCount
        while low < high {
            let middle = (low &+ high) / 2
            if start(sticky[middle]) <= p { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return nil }
        let row = sticky[low - 1]
        guard low < stickyCount else { return StickyRow(row: row, top: p) }
        return StickyRow(row: row, top: min(p, start(sticky[low]) - height(row)))
    }

    /// How many of `sticky`'s (ascending) indices name rows the list has.
    static func stickyCount(_ sticky: [Int], rows count: Int) -> Int {
        var low = 0, high = sticky.count
        while low < high {
            let middle = (low + high) / 2
            if sticky[middle] < count { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension ScrollContainer {
    /// The state's `stickyRow` and `refreshing` (docs/design.md §21), for a container with
    /// sticky rows or a `refresh` (``appBarState``), from the pin line `p(y) = y + a_lo + h(y)`.
    /// Static, and given only what it reads: a method of the container called from `state` makes
    /// the compiler copy the whole container first, on every state (callgrind: +160
    /// instructions per event, taken or not).
    @inline(never)
    static func appBarFields(rows: RowLayout?, refresh: Bool?, pinLine: Double) -> (sticky: StickyRow?, refreshing: Bool?) {
        guard let rows, rows.stickyCount > 0 else { return (nil, refresh) }
        return (rows.stickyRow(pinLine: pinLine), refresh)
    }
}
