/// A width and a height. Sizes produced by layout are never negative (see `init(clamping:)`).
public struct Size: Hashable, Sendable {
    /// Horizontal extent, px.
    public var width: Double
    /// Vertical extent, px.
    public var height: Double

    /// Creates a size as given, negative values included; use ``init(clamping:_:)`` for a
    /// laid-out size.
    @inlinable
    public init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    /// A size whose negative dimensions are clamped to zero, as SwiftUI does for frames.
    @inlinable
    public init(clamping width: Double, _ height: Double) {
        self.width = max(0, width)
        self.height = max(0, height)
    }

    /// The empty size, 0 × 0 px.
    public static let zero = Size(width: 0, height: 0)

    /// The length along an axis: width for horizontal, height for vertical.
    @inlinable
    public subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }
}
