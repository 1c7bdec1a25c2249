/// Where a `scrollTo` goes (docs/design.md §7, §12), as SwiftUI's `ScrollPosition`: coordinates, a
/// row with an optional anchor, or an edge — or a row or an edge along one axis and a coordinate
/// along the other.
public struct ScrollPosition: Hashable, Sendable {
    /// Offsets per axis (`x`, `y`); an axis left nil stays unless a row or edge names it.
    public var point: AxisValues
    /// A row (along the list axis) to bring into the usable area.
    public var row: Int?
    /// Where that row meets the usable area; nil scrolls as little as possible.
    public var anchor: ScrollAnchor?
    /// An edge to scroll to: its axis' `lo` (top, leading) or `hi` (bottom, trailing).
    public var edge: Edge?

    /// A position from a request's fields; ``ScrollContainer/scroll(to:animation:at:)-(ScrollPosition,_,_)``
    /// checks that they fit together and the container.
    public init(x: Double? = nil, y: Double? = nil, row: Int? = nil, anchor: ScrollAnchor? = nil, edge: Edge? = nil) {
        point = AxisValues(x: x, y: y)
        self.row = row
        self.anchor = anchor
        self.edge = edge
    }

    /// Row `index`, met at `anchor` (SwiftUI's `scrollTo(id:anchor:)`).
    public static func row(_ index: Int, anchor: ScrollAnchor? = nil) -> ScrollPosition {
        ScrollPosition(row: index, anchor: anchor)
    }

    /// An edge (SwiftUI's `scrollTo(edge:)`).
    public static func edge(_ edge: Edge) -> ScrollPosition {
        ScrollPosition(edge: edge)
    }
}

/// A `scrollTo` that cannot apply to its container (docs/design.md §12's `invalid_value` cases),
/// with the request field it concerns and a message for the client.
public enum ScrollPositionError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A row was asked of a container without rows.
    case noRows
    /// The row is outside `[0, count)`.
    case rowOutOfRange(row: Int, count: Int)
    /// A numeric anchor outside [0, 1] (or not a number).
    case anchorOutOfRange(Double)
    /// An anchor name that is not one of ``ScrollAnchor/names``.
    case unknownAnchor(String)
    /// An anchor without a row to apply to.
    case anchorWithoutRow
    /// Two targets for one axis: `first` and `second` name the fields (`row`, `edge`, `x`, `y`).
    case conflictingTargets(Axis, first: String, second: String)
    /// An edge of an axis the container does not scroll.
    case edgeNotScrolled(Edge)
    /// An edge name that is not one of ``Edge``'s.
    case unknownEdge(String)

    /// The request field at fault.
    public var field: String {
        switch self {
        case .noRows, .rowOutOfRange: "row"
        case .anchorOutOfRange, .unknownAnchor, .anchorWithoutRow: "anchor"
        case .conflictingTargets(_, let first, _): first
        case .edgeNotScrolled, .unknownEdge: "edge"
        }
    }

    /// One line for the client, naming the field and the value at fault.
    public var description: String {
        switch self {
        case .noRows:
            return "invalid \"row\": the container has no rows (configure rows first)"
        case let .rowOutOfRange(row, count):
            let valid = count > 0 ? "0…\(count - 1)" : "none"
            return "invalid \"row\": \(row) is not a row of this container (it has \(count) rows: \(valid))"
        case .anchorOutOfRange(let value):
            return "invalid \"anchor\": \(value) is outside [0, 1] (or use top, center, bottom, leading, trailing)"
        case .unknownAnchor(let name):
            return "invalid \"anchor\": unknown anchor \"\(name)\" (top, center, bottom, leading, trailing, or a number in [0, 1])"
        case .anchorWithoutRow:
            return "invalid \"anchor\": an anchor applies to a \"row\", and none was given"
        case let .conflictingTargets(axis, first, second):
            let name = axis == .vertical ? "vertical" : "horizontal"
            return "invalid \"\(first)\": \"\(first)\" and \"\(second)\" both aim the \(name) axis; give one"
        case .edgeNotScrolled(let edge):
            let name = edge.axis == .vertical ? "vertically" : "horizontally"
            return "invalid \"edge\": the container does not scroll \(name), so it has no \(edge.rawValue) edge to scroll to"
        case .unknownEdge(let name):
            return "invalid \"edge\": unknown edge \"\(name)\" (top, bottom, leading, trailing)"
        }
    }
}
