/// Insets on the four edges of a rectangle, named as SwiftUI names them.
public struct EdgeInsets: Hashable, Sendable {
    public var top: Double
    public var leading: Double
    public var bottom: Double
    public var trailing: Double

    @inlinable
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    public static let zero = EdgeInsets()

    /// The inset before the content's start along an axis (top or leading).
    @inlinable
    public func leadingEdge(_ axis: Axis) -> Double { axis == .vertical ? top : leading }

    /// The inset after the content's end along an axis (bottom or trailing).
    @inlinable
    public func trailingEdge(_ axis: Axis) -> Double { axis == .vertical ? bottom : trailing }
}
