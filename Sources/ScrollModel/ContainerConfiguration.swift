/// Everything that defines one scroll container: sizes, insets, axes, the optional header and
/// rows, the physics, and which devices drive it.
public struct ContainerConfiguration: Hashable, Sendable {
    /// The viewport's size, px (`containerSize`; default 800 × 600): `H` in every formula, the
    /// rubber band's `d`, the page size for paging, and the base of the automatic wheel step.
    public var containerSize: Size
    /// The content's size; nil means the content takes its ideal size (rows, header).
    public var contentSize: Size?
    /// Insets around the content, px (default none); they widen the resting range
    /// `[-inset.top, max(C − H + inset.bottom, -inset.top)]`.
    public var contentInsets: EdgeInsets
    /// The axes it scrolls (default vertical); input along any other axis is ignored and the
    /// offset there stays at its resting start.
    public var axes: Axis.Set
    /// A collapsing header at the start of the content; nil: none (and no `header` in states).
    public var header: HeaderConfiguration?
    /// The rows of a list, for `visibleRows` and the `rows` scroll target; nil: none (and no
    /// `visibleRows` in states).
    public var rows: RowsConfiguration?
    /// The feel: profile and every constant of docs/design.md §5.
    public var physics: ScrollPhysics
    /// Where a release aims (`scroll_target`); default ``ScrollTargetBehavior/none``.
    public var scrollTarget: ScrollTargetBehavior
    /// Device names that drive this container; empty: every device.
    public var devices: [String]
    /// The edge the container starts at and holds on to while its content changes (`anchor`;
    /// default ``DefaultScrollAnchor/top``), as SwiftUI's `defaultScrollAnchor`.
    public var anchor: DefaultScrollAnchor
    /// The container this one is nested in (`parent`, docs/design.md §14), by name; nil: none.
    /// Input given to the container that it does not take goes on to its parent, and so on up.
    public var parent: String?
    /// What a gesture pushing against an edge does (`overscroll`; default
    /// ``OverscrollBehavior/auto``). ``OverscrollBehavior/none`` also turns the physics'
    /// `overscroll` off (`init(containerSize:contentSize:contentInsets:axes:header:rows:physics:scrollTarget:devices:anchor:parent:overscroll:)` turns it off).
    public var overscroll: OverscrollBehavior
    /// Where the container lies on a touchscreen (`touch_frame`, docs/design.md §25), in the
    /// screen's normalized coordinates; nil (the default): it never gets touches.
    public var touchFrame: Rect?
    /// Pull to refresh on the list axis's leading edge (`refresh`, docs/design.md §21); nil:
    /// none (and no `refreshing` in states).
    public var refresh: RefreshConfiguration?
    /// The directional lock, bounce, snapping and scroll indicators (docs/design.md §22).
    public var gestures = GestureSettings()

    /// Creates a configuration; the defaults are scrolld's built-in `main` container
    /// (docs/design.md §8): 800 × 600, content 800 × 20000, no insets, vertical, `ios` physics.
    public init(
        containerSize: Size = Size(width: 800, height: 600),
        contentSize: Size? = Size(width: 800, height: 20000),
        contentInsets: EdgeInsets = .zero,
        axes: Axis.Set = .vertical,
        header: HeaderConfiguration? = nil,
        rows: RowsConfiguration? = nil,
        physics: ScrollPhysics = ScrollPhysics(),
        scrollTarget: ScrollTargetBehavior = .none,
        devices: [String] = [],
        anchor: DefaultScrollAnchor = .top,
        parent: String? = nil,
        overscroll: OverscrollBehavior = .auto,
        touchFrame: Rect? = nil,
        refresh: RefreshConfiguration? = nil
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
        self.anchor = anchor
        self.parent = parent
        self.overscroll = overscroll
        self.touchFrame = touchFrame
        self.refresh = refresh
        if overscroll == .none { self.physics.overscroll = false }
    }

    /// The axis rows and the header lie along: horizontal only for a horizontal-only container.
    @inlinable
    public var listAxis: Axis { axes == .horizontal ? .horizontal : .vertical }
}

/// The edge a container starts at and holds on to (docs/design.md §12 "Default anchor"), along its
/// list axis.
public enum DefaultScrollAnchor: String, Hashable, Sendable, CaseIterable {
    /// The start (`"top"`, or `"leading"` for a horizontal container): a new container rests at
    /// `lo`, and only row anchoring keeps its place as the content changes.
    case top
    /// The end (`"bottom"`, or `"trailing"`): a new container rests at `hi`, and one that rests
    /// within 0.5 px of `hi` when its geometry changes is at the new `hi` after it, before any
    /// row anchoring — a log or chat view follows its newest line; scrolled up, it stays put.
    case bottom
}

/// Where a release aims, as SwiftUI's `scrollTargetBehavior`.
public enum ScrollTargetBehavior: String, Hashable, Sendable, CaseIterable {
    /// A release flings freely, as SwiftUI's default behaviour.
    case none
    /// A release aims at the page boundary (multiples of `H` from `lo`) nearest to where it would
    /// have come to rest, at most one page from where the gesture started, as `.paging`.
    case paging
    /// A release aims at the row top nearest to where it would have come to rest, as
    /// `.viewAligned` over the rows; needs ``ContainerConfiguration/rows`` (else it acts as
    /// ``none``).
    case rows
}

/// A collapsing header at the top of the content (docs/design.md §5 "Header").
public struct HeaderConfiguration: Hashable, Sendable {
    /// `m`, px: the height it collapses to (config `min_height`, default 0).
    public var minHeight: Double
    /// `M`, px: the height it shows at rest at the top (config `max_height`); never below
    /// `minHeight`. Also where rows start by default.
    public var maxHeight: Double
    /// Grow beyond `maxHeight` while the content is pulled past its top edge.
    public var stretch: Bool
    /// Animate to fully expanded or collapsed when scrolling stops half way.
    public var snap: Bool
    /// How the height follows the offset (`header.mode`, docs/design.md §21): pinned to the
    /// distance from the top (default), or revealed by any scroll back (`enterAlways`).
    public var mode: HeaderMode

    /// Creates a header collapsing from `maxHeight` to `minHeight` px; a `maxHeight` below
    /// `minHeight` is raised to it.
    public init(minHeight: Double, maxHeight: Double, stretch: Bool = true, snap: Bool = true, mode: HeaderMode = .pinned) {
        self.minHeight = minHeight
        self.maxHeight = max(minHeight, maxHeight)
        self.stretch = stretch
        self.snap = snap
        self.mode = mode
    }
}
