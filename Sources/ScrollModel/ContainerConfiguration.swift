/// Everything that defines one scroll container: sizes, insets, axes, the optional header and
/// rows, the physics, and which devices drive it.
public struct ContainerConfiguration: Hashable, Sendable {
    public var containerSize: Size
    /// The content's size; nil means the content takes its ideal size (rows, header).
    public var contentSize: Size?
    public var contentInsets: EdgeInsets
    public var axes: Axis.Set
    public var header: HeaderConfiguration?
    public var rows: RowsConfiguration?
    public var physics: ScrollPhysics
    public var scrollTarget: ScrollTargetBehavior
    /// Device names that drive this container; empty: every device.
    public var devices: [String]

    public init(
        containerSize: Size = Size(width: 800, height: 600),
        contentSize: Size? = Size(width: 800, height: 20000),
        contentInsets: EdgeInsets = .zero,
        axes: Axis.Set = .vertical,
        header: HeaderConfiguration? = nil,
        rows: RowsConfiguration? = nil,
        physics: ScrollPhysics = ScrollPhysics(),
        scrollTarget: ScrollTargetBehavior = .none,
        devices: [String] = []
    ) {
        self.containerSize = containerSize
        self.contentSize = contentSize
        self.contentInsets = contentInsets
        self.axes = axes
        self.header = header
        self.rows = rows
        self.physics = physics
        self.scrollTarget = scrollTarget
        self.devices = devices
    }

    /// The axis rows and the header lie along: horizontal only for a horizontal-only container.
    @inlinable
    public var listAxis: Axis { axes == .horizontal ? .horizontal : .vertical }
}

/// Where a release aims, as SwiftUI's `scrollTargetBehavior`.
public enum ScrollTargetBehavior: String, Hashable, Sendable, CaseIterable {
    case none
    case paging
    case rows
}

/// A collapsing header at the top of the content (DESIGN §5 "Header").
public struct HeaderConfiguration: Hashable, Sendable {
    public var minHeight: Double
    public var maxHeight: Double
    /// Grow beyond `maxHeight` while the content is pulled past its top edge.
    public var stretch: Bool
    /// Animate to fully expanded or collapsed when scrolling stops half way.
    public var snap: Bool

    public init(minHeight: Double, maxHeight: Double, stretch: Bool = true, snap: Bool = true) {
        self.minHeight = minHeight
        self.maxHeight = max(minHeight, maxHeight)
        self.stretch = stretch
        self.snap = snap
    }
}

/// The rows of a list (DESIGN §5 "Rows").
public struct RowsConfiguration: Hashable, Sendable {
    public var heights: RowHeights
    /// Content coordinate of the first row's top; nil: the header's max height, else 0.
    public var top: Double?
    /// A row is visible when more than this fraction of its height is inside the viewport.
    public var threshold: Double

    public enum RowHeights: Hashable, Sendable {
        case uniform(count: Int, height: Double)
        case explicit([Double])
    }

    public init(heights: RowHeights, top: Double? = nil, threshold: Double = 0.5) {
        self.heights = heights
        self.top = top
        self.threshold = threshold
    }

    public init(count: Int, height: Double, top: Double? = nil, threshold: Double = 0.5) {
        self.init(heights: .uniform(count: max(0, count), height: max(0, height)), top: top, threshold: threshold)
    }
}
