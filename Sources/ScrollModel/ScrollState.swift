/// What a container publishes (docs/design.md §4): everything a client needs at one instant.
public struct ScrollState: Hashable, Sendable {
    /// The instant this state describes, µs on the engine's clock (the state line's `t`).
    public var time: Timestamp
    /// SwiftUI's phase at `time` (the state line's `phase`).
    public var phase: ScrollPhase
    /// Offset, sizes and insets as presented at `time` (`contentOffset`, `contentSize`,
    /// `containerSize`, `contentInsets`), mid-animation when a geometry change is animating.
    public var geometry: ScrollGeometry
    /// How fast the offset changes, px/s per axis, in the offset's direction (positive y: moving
    /// toward the bottom of the content). During a drag it is the velocity a release would fling
    /// with; 0 at rest and on axes the container does not scroll.
    public var velocity: Point
    /// Present only when a header is configured.
    public var header: HeaderState?
    /// Present only when rows are configured.
    public var visibleRows: VisibleRows?
    /// The section header pinned at the pin line and where it is drawn (docs/design.md §21);
    /// nil when no sticky row is pinned (or none is configured).
    public var stickyRow: StickyRow?
    /// Whether a refresh is running (docs/design.md §21); nil when no `refresh` is configured.
    public var refreshing: Bool?
    /// The scroll indicators of the axes the container scrolls (docs/design.md §22); nil in a
    /// state built without them.
    public var indicators: ScrollIndicators?

    /// Creates a state from its parts; containers build their own (``ScrollContainer/state``).
    public init(
        time: Timestamp,
        phase: ScrollPhase,
        geometry: ScrollGeometry,
        velocity: Point,
        header: HeaderState? = nil,
        visibleRows: VisibleRows? = nil,
        stickyRow: StickyRow? = nil,
        refreshing: Bool? = nil,
        indicators: ScrollIndicators? = nil
    ) {
        self.time = time
        self.phase = phase
        self.geometry = geometry
        self.velocity = velocity
        self.header = header
        self.visibleRows = visibleRows
        self.stickyRow = stickyRow
        self.refreshing = refreshing
        self.indicators = indicators
    }

    /// The published offset, px: `geometry.contentOffset`.
    @inlinable public var contentOffset: Point { geometry.contentOffset }
}
