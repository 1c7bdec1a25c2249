/// A width and a height. Sizes produced by layout are never negative (see `init(clamping:)`).
public struct Size: Hashable, Sendable {
    public var width: Double
    public var height: Double

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

    public static let zero = Size(width: 0, height: 0)

    /// The length along an axis: width for horizontal, height for vertical.
    @inlinable
    public subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }
}
