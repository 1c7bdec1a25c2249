/// An origin and a size.
public struct Rect: Hashable, Sendable {
    /// The top-left corner, px, in whatever space the rectangle was read in.
    public var origin: Point
    /// The extent from `origin` to the right and down, px.
    public var size: Size

    /// Creates a rectangle from its corner and size (not clamped: layout clamps sizes, see
    /// ``Size/init(clamping:_:)``).
    @inlinable
    public init(origin: Point, size: Size) {
        self.origin = origin
        self.size = size
    }

    /// Creates a rectangle from its corner `(x, y)` and its `width` × `height`, px.
    @inlinable
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.init(origin: Point(x: x, y: y), size: Size(width: width, height: height))
    }

    /// The empty rectangle at the origin.
    public static let zero = Rect(origin: .zero, size: .zero)

    /// Left edge, px: `origin.x`.
    @inlinable public var minX: Double { origin.x }
    /// Top edge, px: `origin.y`.
    @inlinable public var minY: Double { origin.y }
    /// Right edge, px: `origin.x + size.width`.
    @inlinable public var maxX: Double { origin.x + size.width }
    /// Bottom edge, px: `origin.y + size.height`.
    @inlinable public var maxY: Double { origin.y + size.height }
    /// Width, px: `size.width`.
    @inlinable public var width: Double { size.width }
    /// Height, px: `size.height`.
    @inlinable public var height: Double { size.height }

}
