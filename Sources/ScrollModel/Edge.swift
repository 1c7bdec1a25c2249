/// An edge of a container, as SwiftUI's `Edge`: the start or end of one axis.
public enum Edge: String, Hashable, Sendable, CaseIterable {
    /// The start of the vertical axis: offset `lo` (`-inset.top`).
    case top
    /// The start of the horizontal axis: offset `lo` (`-inset.leading`).
    case leading
    /// The end of the vertical axis: offset `hi`.
    case bottom
    /// The end of the horizontal axis: offset `hi`.
    case trailing

    /// The edge a request names (`top`, `leading`, `bottom`, `trailing`).
    public init(named name: String) throws(ScrollPositionError) {
        guard let edge = Edge(rawValue: name) else { throw .unknownEdge(name) }
        self = edge
    }

    /// The axis the edge ends.
    @inlinable
    public var axis: Axis { self == .top || self == .bottom ? .vertical : .horizontal }

    /// Whether it is the axis' start (`lo`) rather than its end (`hi`).
    @inlinable
    public var isStart: Bool { self == .top || self == .leading }

    /// The edge's offset in `range`, the axis' resting range.
    @inlinable
    public func offset(in range: ClosedRange<Double>) -> Double {
        isStart ? range.lowerBound : range.upperBound
    }
}
