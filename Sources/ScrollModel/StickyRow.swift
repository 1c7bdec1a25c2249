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
    /// The pin line `p(y) = y + a_lo + h(y)` (docs/design.md §21), `h` the header's height in
    /// `header` (0 without one), for the offset `y` along the list axis.
    @inline(__always)
    func pinLine(at y: Double, _ axis: Axis, header: HeaderState?) -> Double {
        y + contentInsets.leadingEdge(axis) + (header?.height ?? 0)
    }
}
