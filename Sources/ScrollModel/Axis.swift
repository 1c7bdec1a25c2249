/// The horizontal or vertical dimension of a scroll container.
public enum Axis: Int, Hashable, Sendable, CaseIterable {
    /// The x axis: width, `x` coordinates; positive is to the right. Raw value 0.
    case horizontal
    /// The y axis: height, `y` coordinates; positive is down. Raw value 1.
    case vertical

    /// A set of axes, as a scroll view's `axes` parameter.
    public struct Set: OptionSet, Hashable, Sendable {
        /// Bit 1 is ``Axis/horizontal``, bit 2 ``Axis/vertical``; other bits are ignored.
        public let rawValue: UInt8
        /// Creates a set from its bits (1: horizontal, 2: vertical).
        @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// Scrolls along x only, as `ScrollView(.horizontal)`; the config value `horizontal`.
        public static let horizontal = Set(rawValue: 1)
        /// Scrolls along y only, the SwiftUI and scrolld default; the config value `vertical`.
        public static let vertical = Set(rawValue: 2)
        /// Scrolls along both axes, as `ScrollView([.horizontal, .vertical])`; the config value
        /// `both`.
        public static let both: Set = [.horizontal, .vertical]

        /// Whether `axis` is in the set, so a container with these axes scrolls along it (input on
        /// an axis it does not scroll is ignored).
        @inlinable
        public func contains(_ axis: Axis) -> Bool {
            rawValue & (axis == .horizontal ? 1 : 2) != 0
        }
    }
}
