import ScrollModel
import ScrollProtocol

/// A value derived from a container's state that ``ScrollClient/observe(_:_:)`` hears of only
/// when it changes (docs/design.md §13), with the Swift type its values have:
///
/// ```swift
/// for try await change in scrolld.observe("feed", .phase) where change.new == .idle {
///     print("at rest")
/// }
/// for try await change in scrolld.observe("feed", .headerProgress()) {
///     print("header", change.new ?? 0) // Double?: nil without a header
/// }
/// for try await change in scrolld.observe("feed", .nearEnd(distance: 300)) where change.new {
///     print("load more") // Bool
/// }
/// ```
///
/// Numbers are always `Double`, whether the daemon wrote `0` or `0.25`.
public struct ObservedValue<Value: Hashable & Sendable>: Sendable {
    /// The observation as the request names it (`of` and its options).
    public let observation: ScrollObservation
    let decode: @Sendable (ProtocolValue) -> Value?

    init(_ observation: ScrollObservation, decode: @escaping @Sendable (ProtocolValue) -> Value?) {
        self.observation = observation
        self.decode = decode
    }
}

extension ObservedValue where Value == ScrollPhase {
    /// `phase`: SwiftUI's `onScrollPhaseChange`.
    public static var phase: ObservedValue<ScrollPhase> {
        ObservedValue(.phase) { value in
            guard case .string(let name) = value else { return nil }
            return ScrollPhase(rawValue: name)
        }
    }
}

extension ObservedValue where Value == Double {
    /// `contentOffset.y` (px), quantised to `step` when given: `step × floor(y / step)`.
    public static func contentOffsetY(step: Double? = nil) -> ObservedValue<Double> {
        ObservedValue(.contentOffset(.vertical, step: step)) { $0.doubleValue }
    }

    /// `contentOffset.x` (px), quantised to `step` when given.
    public static func contentOffsetX(step: Double? = nil) -> ObservedValue<Double> {
        ObservedValue(.contentOffset(.horizontal, step: step)) { $0.doubleValue }
    }

    /// `velocity.y` (px/s), quantised to `step` when given.
    public static func velocityY(step: Double? = nil) -> ObservedValue<Double> {
        ObservedValue(.velocity(.vertical, step: step)) { $0.doubleValue }
    }

    /// `velocity.x` (px/s), quantised to `step` when given.
    public static func velocityX(step: Double? = nil) -> ObservedValue<Double> {
        ObservedValue(.velocity(.horizontal, step: step)) { $0.doubleValue }
    }
}

extension ObservedValue where Value == Double? {
    /// `header.height` (px), quantised to `step` when given; nil for a container without a
    /// header.
    public static func headerHeight(step: Double? = nil) -> ObservedValue<Double?> {
        ObservedValue(.headerHeight(step: step)) { optionalNumber($0) }
    }

    /// `header.progress` (0 expanded … 1 collapsed), quantised to `step` when given; nil for a
    /// container without a header.
    public static func headerProgress(step: Double? = nil) -> ObservedValue<Double?> {
        ObservedValue(.headerProgress(step: step)) { optionalNumber($0) }
    }

    /// A number, or nil as a value of its own (`.some(nil)`) for JSON's null; nil for anything
    /// else (a value this client cannot read).
    @Sendable private static func optionalNumber(_ value: ProtocolValue) -> Double?? {
        if value == .null { return .some(nil) }
        guard let number = value.doubleValue else { return nil }
        return .some(number)
    }
}

extension ObservedValue where Value == VisibleRows? {
    /// `visibleRows`: the first and last visible row (`VisibleRows.empty` when no row is);
    /// nil for a container without rows.
    public static var visibleRows: ObservedValue<VisibleRows?> {
        ObservedValue(.visibleRows) { value in
            if value == .null { return .some(nil) }
            guard case .object = value, let first = value[member: "first"], let last = value[member: "last"] else { return nil }
            func index(_ value: ProtocolValue) -> Int?? {
                switch value {
                case .null: .some(nil)
                case .integer(let row): .some(row)
                default: nil
                }
            }
            guard let first = index(first), let last = index(last) else { return nil }
            return VisibleRows(first: first, last: last)
        }
    }
}

extension ObservedValue where Value == Int? {
    /// `stickyRow`: the index of the sticky row pinned at the pin line (docs/design.md §21); nil
    /// when none is.
    public static var stickyRow: ObservedValue<Int?> {
        ObservedValue(.stickyRow) { value in
            switch value {
            case .null: .some(nil)
            case .integer(let row): .some(row)
            default: nil
            }
        }
    }
}

extension ObservedValue where Value == Bool {
    /// `rowVisible`: whether at least `threshold` (in (0, 1]) of row `row`'s height is visible,
    /// SwiftUI's `onScrollVisibilityChange(threshold:)`.
    public static func rowVisible(_ row: Int, threshold: Double = 0.5) -> ObservedValue<Bool> {
        ObservedValue(.rowVisible(row: row, threshold: threshold), decode: boolean)
    }

    /// `nearEnd`: whether the offset is within `distance` px of the end of `axis` (load more).
    public static func nearEnd(distance: Double, axis: Axis = .vertical) -> ObservedValue<Bool> {
        ObservedValue(.nearEnd(distance: distance, axis: axis), decode: boolean)
    }

    /// `atEdge`: whether the offset is within 0.5 px of `edge`, or beyond it.
    public static func atEdge(_ edge: Edge) -> ObservedValue<Bool> {
        ObservedValue(.atEdge(edge), decode: boolean)
    }

    /// `refreshing`: whether a refresh runs (docs/design.md §21); false without `refresh`.
    public static var refreshing: ObservedValue<Bool> {
        ObservedValue(.refreshing, decode: boolean)
    }

    @Sendable private static func boolean(_ value: ProtocolValue) -> Bool? {
        guard case .bool(let flag) = value else { return nil }
        return flag
    }
}

/// The device that last scrolled a container (docs/design.md §18's `source`).
public struct InputSource: Hashable, Sendable {
    /// The device's id, as `devices` lists it.
    public var device: Int
    /// Its name; nil for a device that was never announced.
    public var name: String?
    /// `wheel`, `finger` or `continuous`.
    public var kind: String

    /// A source from its fields.
    public init(device: Int, name: String?, kind: String) {
        self.device = device
        self.name = name
        self.kind = kind
    }
}

extension ObservedValue where Value == InputSource? {
    /// `source`: the device, name and kind of the last scroll event that reached the container;
    /// nil before any.
    public static var source: ObservedValue<InputSource?> {
        ObservedValue(.source) { value in
            if value == .null { return .some(nil) }
            guard case .integer(let device)? = value[member: "device"], case .string(let kind)? = value[member: "kind"] else { return nil }
            var name: String?
            if case .string(let text)? = value[member: "name"] { name = text }
            return InputSource(device: device, name: name, kind: kind)
        }
    }
}

extension ScrollObservation {
    /// The request's members for this observation (`of` and its options).
    var members: [(String, ProtocolValue)] {
        var members: [(String, ProtocolValue)] = [("of", .string(key))]
        switch self {
        case .phase, .visibleRows, .source, .stickyRow, .refreshing:
            break
        case .contentOffset(_, let step), .velocity(_, let step), .headerHeight(let step), .headerProgress(let step):
            if let step { members.append(("step", .double(step))) }
        case let .rowVisible(row, threshold):
            members += [("row", .integer(row)), ("threshold", .double(threshold))]
        case let .nearEnd(distance, axis):
            members += [("distance", .double(distance)), ("axis", .string(axis == .horizontal ? "x" : "y"))]
        case .atEdge(let edge):
            members.append(("edge", .string(edge.rawValue)))
        }
        return members
    }
}
