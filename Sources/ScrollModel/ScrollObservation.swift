/// A value derived from a container's state that a client observes and hears of only when it
/// changes (docs/design.md §13), as SwiftUI's `onScrollGeometryChange(for:of:action:)`,
/// `onScrollPhaseChange` and `onScrollVisibilityChange(threshold:)`.
///
/// Built from a request's `of` and its options with ``init(of:options:)``, which names what is
/// wrong; evaluated on every published state with `value(in:rows:header:listAxis:)` (or the
/// container's and engine's conveniences), which allocates nothing.
///
/// docs/design.md §18's `source` (the device, name and kind of the last input event that reached the
/// container) is not a value of the state: it is read from what the container records of the
/// input routed to it (``ScrollContainer/source``), at the moment the state is published.
public enum ScrollObservation: Hashable, Sendable {
    /// `phase`: the phase.
    case phase
    /// `contentOffset.x` / `contentOffset.y`, quantised to `step` when given.
    case contentOffset(Axis, step: Double?)
    /// `velocity.x` / `velocity.y`, quantised to `step` when given.
    case velocity(Axis, step: Double?)
    /// `header.height`, quantised to `step` when given; null without a header.
    case headerHeight(step: Double?)
    /// `header.progress`, quantised to `step` when given; null without a header.
    case headerProgress(step: Double?)
    /// `visibleRows`: the state's first and last visible row; null without rows.
    case visibleRows
    /// `rowVisible`: whether at least `threshold` of row `row`'s height lies inside `[y, y + H]`
    /// (the usable area `U(y)` with `rows.visible_in = "usable"`); false for a row the list does
    /// not have (yet).
    case rowVisible(row: Int, threshold: Double)
    /// `nearEnd`: whether `hi − y ≤ distance` along `axis`.
    case nearEnd(distance: Double, axis: Axis)
    /// `atEdge`: whether the offset is within 0.5 px of `edge` or beyond it.
    case atEdge(Edge)
    /// `source`: the device, name and kind of the last scroll event that reached the container
    /// (docs/design.md §18); null before any.
    case source
    /// `stickyRow`: the index of the sticky row pinned at the pin line (docs/design.md §21); null
    /// when none is.
    case stickyRow
    /// `refreshing`: whether a refresh is running (docs/design.md §21); false without `refresh`.
    case refreshing

    /// The keys `of` accepts, in docs/design.md §13's order.
    public static let keys = [
        "phase", "contentOffset.x", "contentOffset.y", "velocity.x", "velocity.y", "header.height",
        "header.progress", "visibleRows", "rowVisible", "nearEnd", "atEdge", "source", "stickyRow", "refreshing",
    ]

    /// The key as a request names it (`of`).
    public var key: String {
        switch self {
        case .phase: "phase"
        case .contentOffset(let axis, _): axis == .horizontal ? "contentOffset.x" : "contentOffset.y"
        case .velocity(let axis, _): axis == .horizontal ? "velocity.x" : "velocity.y"
        case .headerHeight: "header.height"
        case .headerProgress: "header.progress"
        case .visibleRows: "visibleRows"
        case .rowVisible: "rowVisible"
        case .nearEnd: "nearEnd"
        case .atEdge: "atEdge"
        case .source: "source"
        case .stickyRow: "stickyRow"
        case .refreshing: "refreshing"
        }
    }

    /// One option of an `observe` request, as its JSON gives it.
    public enum Option: Hashable, Sendable {
        /// An integer (`row`, or any number written without a fraction).
        case integer(Int)
        /// A number with a fraction or exponent.
        case number(Double)
        /// A string (`axis`, `edge`).
        case string(String)
        /// Anything else (true, null, an array, an object), named for the message: `"a boolean"`.
        case other(String)
    }

    /// The observation a request names: `key` is its `of`, `options` every other field of the
    /// request that is not the protocol's own (`op`, `container`, `of`, `id`). Fails naming the
    /// key or option at fault: an unknown key, an option the key does not take, a missing
    /// required option, a value of the wrong kind or out of range.
    public init(of key: String, options: [(name: String, value: Option)]) throws(ObservationError) {
        var reader = OptionReader(key: key, options: options)
        switch key {
        case "phase": self = .phase
        case "contentOffset.x": self = .contentOffset(.horizontal, step: try reader.step())
        case "contentOffset.y": self = .contentOffset(.vertical, step: try reader.step())
        case "velocity.x": self = .velocity(.horizontal, step: try reader.step())
        case "velocity.y": self = .velocity(.vertical, step: try reader.step())
        case "header.height": self = .headerHeight(step: try reader.step())
        case "header.progress": self = .headerProgress(step: try reader.step())
        case "visibleRows": self = .visibleRows
        case "rowVisible": self = .rowVisible(row: try reader.row(), threshold: try reader.threshold())
        case "nearEnd": self = .nearEnd(distance: try reader.distance(), axis: try reader.axis())
        case "atEdge": self = .atEdge(try reader.edge())
        case "source": self = .source
        case "stickyRow": self = .stickyRow
        case "refreshing": self = .refreshing
        default:
            throw ObservationError(option: "of", message: "unknown key \"\(key)\" (one of \(Self.keys.joined(separator: ", ")))")
        }
        try reader.finish()
    }
}

/// An `observe` request that names no valid observation: the key or option at fault and why.
public struct ObservationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The request field at fault: `of` or the option's name.
    public var option: String
    /// What is wrong, in words.
    public var message: String

    /// An error about `option`.
    public init(option: String, message: String) {
        self.option = option
        self.message = message
    }

    /// `invalid "threshold": …`, one line.
    public var description: String { "invalid \"\(option)\": \(message)" }
}

/// Reads an observation's options, remembering which were used so that any other is refused.
struct OptionReader {
    let key: String
    let options: [(name: String, value: ScrollObservation.Option)]
    var used: Set<String> = []

    init(key: String, options: [(name: String, value: ScrollObservation.Option)]) {
        self.key = key
        self.options = options
    }

    mutating func take(_ name: String) -> ScrollObservation.Option? {
        used.insert(name)
        return options.last { $0.name == name }?.value
    }

    func number(_ name: String, _ option: ScrollObservation.Option) throws(ObservationError) -> Double {
        switch option {
        case .integer(let n) where Limits.accepts(Double(n)): return Double(n)
        case .number(let x) where Limits.accepts(x): return x
        default: throw ObservationError(option: name, message: "expected a number between -1e9 and 1e9, got \(Self.describe(option))")
        }
    }

    mutating func step() throws(ObservationError) -> Double? {
        guard let option = take("step") else { return nil }
        let range = Limits.observationStep
        // A step's own range, which lies within the general one, is what a refusal names:
        // a step of NaN or 1e300 is told the range a step may have.
        guard let s = try? number("step", option), range.contains(s) else {
            throw ObservationError(option: "step", message: "must be between \(Limits.format(range.lowerBound)) and \(Limits.format(range.upperBound)), got \(Self.describe(option))")
        }
        return s
    }

    mutating func row() throws(ObservationError) -> Int {
        guard let option = take("row") else { throw ObservationError(option: "row", message: "rowVisible needs the row to watch (\"row\": N)") }
        guard case .integer(let n) = option, n >= 0 else {
            throw ObservationError(option: "row", message: "expected a row index (an integer ≥ 0), got \(Self.describe(option))")
        }
        return n
    }

    mutating func threshold() throws(ObservationError) -> Double {
        guard let option = take("threshold") else { return 0.5 }
        let t = try number("threshold", option)
        guard t > 0, t <= 1 else { throw ObservationError(option: "threshold", message: "must be in (0, 1], got \(Self.describe(option))") }
        return t
    }

    mutating func distance() throws(ObservationError) -> Double {
        guard let option = take("distance") else {
            throw ObservationError(option: "distance", message: "nearEnd needs the distance from the end, px (\"distance\": d)")
        }
        let d = try number("distance", option)
        guard d >= 0 else { throw ObservationError(option: "distance", message: "must not be negative, got \(Self.describe(option))") }
        return d
    }

    mutating func axis() throws(ObservationError) -> Axis {
        guard let option = take("axis") else { return .vertical }
        switch option {
        case .string("y"): return .vertical
        case .string("x"): return .horizontal
        default: throw ObservationError(option: "axis", message: "expected \"y\" or \"x\", got \(Self.describe(option))")
        }
    }

    mutating func edge() throws(ObservationError) -> Edge {
        let names = Edge.allCases.map(\.rawValue).joined(separator: ", ")
        guard let option = take("edge") else { throw ObservationError(option: "edge", message: "atEdge needs the edge (\(names))") }
        guard case .string(let name) = option, let edge = Edge(rawValue: name) else {
            throw ObservationError(option: "edge", message: "expected one of \(names), got \(Self.describe(option))")
        }
        return edge
    }

    /// Refuses an option the key does not take.
    func finish() throws(ObservationError) {
        if let extra = options.first(where: { !used.contains($0.name) }) {
            let takes = used.isEmpty ? "takes no options" : "takes " + used.sorted().joined(separator: ", ")
            throw ObservationError(option: extra.name, message: "\(key) \(takes)")
        }
    }

    static func describe(_ option: ScrollObservation.Option) -> String {
        switch option {
        case .integer(let n): return "\(n)"
        case .number(let x): return "\(x)"
        case .string(let s): return "\"\(s)\""
        case .other(let kind): return kind
        }
    }
}
