/// What a container publishes (DESIGN §4): everything a client needs at one instant.
public struct ScrollState: Hashable, Sendable {
    public var time: Timestamp
    public var phase: ScrollPhase
    public var geometry: ScrollGeometry
    public var velocity: Point
    /// Present only when a header is configured.
    public var header: HeaderState?
    /// Present only when rows are configured.
    public var visibleRows: VisibleRows?

    public init(
        time: Timestamp,
        phase: ScrollPhase,
        geometry: ScrollGeometry,
        velocity: Point,
        header: HeaderState? = nil,
        visibleRows: VisibleRows? = nil
    ) {
        self.time = time
        self.phase = phase
        self.geometry = geometry
        self.velocity = velocity
        self.header = header
        self.visibleRows = visibleRows
    }

    @inlinable public var contentOffset: Point { geometry.contentOffset }
}
