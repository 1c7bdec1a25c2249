/// The geometry of a scroll container, as SwiftUI's `ScrollGeometry`.
public struct ScrollGeometry: Hashable, Sendable {
    /// The negated origin of the content in the container's coordinate space.
    public var contentOffset: Point
    /// The content's size, px: configured, or its ideal size (rows, header) when none is.
    public var contentSize: Size
    /// The container's own size (the viewport), px: `H` along each axis.
    public var containerSize: Size
    /// Insets around the content, px, which widen the resting range (docs/design.md §5).
    public var contentInsets: EdgeInsets

    /// Creates a geometry from its parts, px.
    @inlinable
    public init(contentOffset: Point, contentSize: Size, containerSize: Size, contentInsets: EdgeInsets) {
        self.contentOffset = contentOffset
        self.contentSize = contentSize
        self.containerSize = containerSize
        self.contentInsets = contentInsets
    }

    /// The part of the content that is on screen, in the content's own space.
    @inlinable
    public var visibleRect: Rect { Rect(origin: contentOffset, size: containerSize) }

    /// The container's own bounds, in its local space.
    @inlinable
    public var bounds: Rect { Rect(origin: .zero, size: containerSize) }

    /// The resting range `[lo, hi]` of the offset along `axis` (docs/design.md §5):
    /// `[-inset.leading, max(C - H + inset.trailing, -inset.leading)]`.
    @inlinable
    public func restingRange(_ axis: Axis) -> ClosedRange<Double> {
        let lo = -contentInsets.leadingEdge(axis)
        let hi = max(contentSize[axis] - containerSize[axis] + contentInsets.trailingEdge(axis), lo)
        return lo...hi
    }
}
