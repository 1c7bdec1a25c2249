/// A size proposal: `nil` along a dimension means "take your ideal size there".
public struct ProposedViewSize: Hashable, Sendable {
    /// Proposed width, px; nil: the view chooses (its ideal width).
    public var width: Double?
    /// Proposed height, px; nil: the view chooses (its ideal height).
    public var height: Double?

    /// Creates a proposal; nil along a dimension leaves it to the view.
    @inlinable
    public init(width: Double?, height: Double?) {
        self.width = width
        self.height = height
    }

    /// No proposal at all (nil × nil): every view takes its ideal size, as SwiftUI's
    /// `.unspecified`.
    public static let unspecified = ProposedViewSize(width: nil, height: nil)

    /// The proposal along `axis`: `width` for horizontal, `height` for vertical (get and set).
    @inlinable
    public subscript(axis: Axis) -> Double? {
        get { axis == .horizontal ? width : height }
        set { if axis == .horizontal { width = newValue } else { height = newValue } }
    }

    /// The size a view with no ideal size of its own takes: the proposal where there is one,
    /// `size` (SwiftUI's default 10×10) elsewhere; negative proposals become 0.
    @inlinable
    public func replacingUnspecifiedDimensions(by size: Size = Size(width: 10, height: 10)) -> Size {
        Size(clamping: width ?? size.width, height ?? size.height)
    }

    /// What a scroll container proposes to its content: `nil` along each scrolled axis, its
    /// own size across them.
    @inlinable
    public static func scrollContent(containerSize: Size, axes: Axis.Set) -> ProposedViewSize {
        ProposedViewSize(
            width: axes.contains(.horizontal) ? nil : max(0, containerSize.width),
            height: axes.contains(.vertical) ? nil : max(0, containerSize.height)
        )
    }
}
