/// Insets on the four edges of a rectangle, named as SwiftUI names them.
public struct EdgeInsets: Hashable, Sendable {
    /// Inset above the content, px: the vertical resting range starts at `-top`, so the content can
    /// rest `top` px below the container's top edge.
    public var top: Double
    /// Inset before the content on the left, px: the horizontal resting range starts at `-leading`.
    public var leading: Double
    /// Inset below the content, px: added to the vertical resting range's upper end, so the end of
    /// the content can scroll `bottom` px above the container's bottom edge.
    public var bottom: Double
    /// Inset after the content on the right, px: added to the horizontal resting range's upper end.
    public var trailing: Double

    /// Creates insets in px; an edge left out is 0.
    @inlinable
    public init(top: Double = 0, leading: Double = 0, bottom: Double = 0, trailing: Double = 0) {
        self.top = top
        self.leading = leading
        self.bottom = bottom
        self.trailing = trailing
    }

    /// No insets: the resting range is `[0, max(C − H, 0)]` on each axis.
    public static let zero = EdgeInsets()

    /// The inset before the content's start along an axis (top or leading).
    @inlinable
    public func leadingEdge(_ axis: Axis) -> Double { axis == .vertical ? top : leading }

    /// The inset after the content's end along an axis (bottom or trailing).
    @inlinable
    public func trailingEdge(_ axis: Axis) -> Double { axis == .vertical ? bottom : trailing }
}
