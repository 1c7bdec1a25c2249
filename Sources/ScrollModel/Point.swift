/// A point in a two-dimensional coordinate space, in points (pixels of the virtual container).
public struct Point: Hashable, Sendable {
    /// Horizontal coordinate, px; positive is right. In a content offset, positive means the
    /// content has moved left (you see further right).
    public var x: Double
    /// Vertical coordinate, px; positive is down. In a content offset, positive means the content
    /// has moved up (you see further down).
    public var y: Double

    /// Creates a point from its coordinates, px.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The origin, (0, 0): also the offset and velocity of a container at rest at its top.
    public static let zero = Point(x: 0, y: 0)

    /// The coordinate along `axis`: `x` for horizontal, `y` for vertical (get and set).
    @inlinable
    public subscript(axis: Axis) -> Double {
        get { axis == .horizontal ? x : y }
        set { if axis == .horizontal { x = newValue } else { y = newValue } }
    }

    /// Component-wise sum: translating a point by another, as origins add up along a parent chain.
    @inlinable
    public static func + (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x + rhs.x, y: lhs.y + rhs.y) }

    /// Component-wise difference: the vector from `rhs` to `lhs`.
    @inlinable
    public static func - (lhs: Point, rhs: Point) -> Point { Point(x: lhs.x - rhs.x, y: lhs.y - rhs.y) }

    /// The point negated on both axes: a content offset is the negated content origin.
    @inlinable
    public static prefix func - (point: Point) -> Point { Point(x: -point.x, y: -point.y) }
}
