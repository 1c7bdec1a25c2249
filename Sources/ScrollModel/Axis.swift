/// The horizontal or vertical dimension of a scroll container.
public enum Axis: Int, Hashable, Sendable, CaseIterable {
    case horizontal
    case vertical

    /// A set of axes, as a scroll view's `axes` parameter.
    public struct Set: OptionSet, Hashable, Sendable {
        public let rawValue: UInt8
        @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

        public static let horizontal = Set(rawValue: 1)
        public static let vertical = Set(rawValue: 2)
        public static let both: Set = [.horizontal, .vertical]

        @inlinable
        public func contains(_ axis: Axis) -> Bool {
            rawValue & (axis == .horizontal ? 1 : 2) != 0
        }
    }
}
