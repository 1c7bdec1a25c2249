/// One virtual scroll container, modelled on SwiftUI's `ScrollView`.
///
/// The container declares a named coordinate space of its own; its content is translated by
/// the scroll position and reports its origin in that space through `ScrollContentOriginKey`;
/// the published `contentOffset` is the negation of that reported origin. On top of the offset
/// it derives the phase, the velocity, the collapsing header and the visible rows.
///
/// Time is whatever the caller says it is: every mutation takes the event or frame time, so
/// the same calls in the same order produce the same states, bit for bit.
public struct ScrollContainer: Sendable {
    /// The container's name: the `container` of its states and requests (`main` by default in
    /// scrolld).
    public let name: String
    /// The configuration last applied with `configure(_:animation:at:)`: the target geometry,
    /// which the presented ``containerSize``, ``contentSize`` and ``contentInsets`` reach only
    /// when an animated change has settled.
    public internal(set) var configuration: ContainerConfiguration
    /// The name of the container's own coordinate space.
    public let coordinateSpaceName: String

    // Layout: root → container (declares the named space) → content (translated by -position).
    var tree: ViewTree
    let containerNode: ViewTree.NodeID
    let contentNode: ViewTree.NodeID
    /// The container's named space as the content sees it.
    let contentSpace: ResolvedCoordinateSpace
    var rowLayout: RowLayout?
    var offsetObserver = PreferenceChangeObserver<ScrollContentOriginKey>()
    /// The geometry as presented now: the configured one, or where an animated change has got to.
    public internal(set) var containerSize: Size
    /// The content's size as presented now, px: configured, or the ideal size of its rows and
    /// header (docs/design.md §5 "Offset observer"), or where an animated change has got to.
    public internal(set) var contentSize: Size
    /// The insets as presented now, px.
    public internal(set) var contentInsets: EdgeInsets
    var geometryAnimation: GeometryAnimation?
    /// The offset as the preference machinery last reported it, px: the negated origin of the
    /// content in ``coordinateSpaceName``, as of ``time``.
    public internal(set) var contentOffset: Point = .zero

    // Model state.
    /// The scroll position applied to the content; the observer reads it back as `contentOffset`.
    var position: Point
    var velocity: Point = .zero
    var motionX: Trajectory?
    var motionY: Trajectory?
    var drag: Drag?
    var tracker: VelocityTracker
    var holdDevice: Int?
    var wheel: WheelGesture?
    var wheelStepX: WheelStepMemo?
    var wheelStepY: WheelStepMemo?
    /// A gesture (wheel, finger, continuous, hold) has ended and its motion, if any, has not yet
    /// come to rest: the header snaps when it does. Programmatic scrolls clear it, so they come
    /// to rest exactly where asked (docs/design.md §19 "Header snap follows gestures only").
    var snapArmed = false
    /// A bottom-anchored container at rest at `hi` follows `hi` while its geometry animates.
    var pinnedToEnd = false
    /// An `enterAlways` header's height and the offset it follows from (docs/design.md §21);
    /// nil for a pinned header or none.
    var revealedHeader: RevealedHeader?
    /// A refresh is running (docs/design.md §21).
    var refreshing = false
    /// How far the top of the resting range lies beyond `lo` per axis: `r` along the list axis
    /// while refreshing, else 0.
    var refreshLift = Point.zero
    /// The configuration has sticky rows or a `refresh`: its states carry docs/design.md §21's fields.
    var appBarState = false
    /// The device and kind of the last scroll event that reached the container (the `source`
    /// observation); nil before any.
    public internal(set) var source: InputOrigin?
    /// The time of the last thing that happened to the container, µs; it never goes backwards.
    public internal(set) var time: Timestamp
    /// Whether the scroll indicators show, and when they hide (docs/design.md §22).
    var indicatorVisibility = IndicatorVisibility()

    @usableFromInline
    struct Drag: Sendable {
        var device: Int
        /// The unconstrained position the finger has reached (`r`).
        var raw: Point
        /// Where the gesture started, for the paging target.
        var origin: Point
        /// A touch's drag (docs/design.md §25): the raw position is this plus the touch's
        /// displacement; nil for a finger or continuous drag.
        var touchAnchor: Point? = nil
        /// The drag's directional lock (docs/design.md §22), consulted only when it is on.
        var lock = DirectionalLock()
    }

    @usableFromInline
    struct WheelGesture: Sendable {
        /// Wheel silence ends the gesture at `deadline`; false once that moment has passed.
        var deadline: Timestamp
        var timerPending: Bool
        var origin: Point
    }

    struct WheelStepMemo: Sendable {
        var length: Double
        var rule: ScrollPhysics.WheelStep
        var step: Double
    }

    /// A container at rest at the start of its resting range (`lo` on each axis, so `-inset.top`
    /// vertically) at `time` µs, phase ``ScrollPhase/idle``. Its coordinate space is named
    /// `"ScrollView(<name>)"`.
    public init(name: String, configuration: ContainerConfiguration = ContainerConfiguration(), at time: Timestamp = 0) {
        self.name = name
        self.configuration = configuration
        self.time = time
        coordinateSpaceName = "ScrollView(\(name))"
        tracker = VelocityTracker(window: configuration.physics.velocityWindow)
        var tree = ViewTree(rootSize: configuration.containerSize)
        containerNode = tree.addChild(
            to: tree.root,
            frame: Rect(origin: .zero, size: configuration.containerSize),
            coordinateSpace: coordinateSpaceName
        )
        contentNode = tree.addChild(to: containerNode, frame: .zero)
        contentSpace = tree.resolve(.named(coordinateSpaceName), from: contentNode)
        self.tree = tree
        containerSize = configuration.containerSize
        contentInsets = configuration.contentInsets
        contentSize = .zero
        position = .zero
        contentSize = Self.idealContentSize(configuration)
        rowLayout = Self.rowLayout(configuration)
        position = Point(x: range(.horizontal).lowerBound, y: range(.vertical).lowerBound)
        // A bottom-anchored container starts at its end (docs/design.md §12 "Default anchor").
        if configuration.anchor == .bottom {
            let axis = configuration.listAxis
            position[axis] = range(axis).upperBound
        }
        resetRevealedHeader(listAxisChanged: true)
        appBarState = configuration.refresh != nil || rowLayout.map { $0.stickyCount > 0 } == true
        layout()
    }

    // MARK: Geometry

    // The container is a kilobyte; calling a non-mutating method of it from a mutating one can
    // make the compiler copy all of it (and retain what it holds) first. The small readers below
    // are therefore always inlined, which lets the compiler read the fields in place.

    /// Sizes the content the way a `ScrollView` proposes to it: `nil` along scrolled axes (the
    /// content's ideal size: its rows and header, else 10), the container's size across them.
    static func idealContentSize(_ configuration: ContainerConfiguration) -> Size {
        if let size = configuration.contentSize { return Size(clamping: size.width, size.height) }
        let axis = configuration.listAxis
        var proposal = ProposedViewSize.scrollContent(containerSize: configuration.containerSize, axes: configuration.axes)
        if proposal[axis] == nil {
            proposal[axis] = rowLayout(configuration).map { $0.top + $0.totalHeight } ?? configuration.header?.maxHeight
        }
        return proposal.replacingUnspecifiedDimensions()
    }

    static func rowLayout(_ configuration: ContainerConfiguration) -> RowLayout? {
        configuration.rows.map { RowLayout($0, defaultTop: configuration.header?.maxHeight ?? 0) }
    }

    /// The presented offset, sizes and insets, as SwiftUI's `onScrollGeometryChange` sees them.
    @inline(__always)
    public var geometry: ScrollGeometry {
        ScrollGeometry(
            contentOffset: contentOffset,
            contentSize: contentSize,
            containerSize: containerSize,
            contentInsets: contentInsets
        )
    }

    /// The resting range `[lo, hi]` along `axis`; while a refresh runs, `[lo − r, hi]` along the
    /// list axis (docs/design.md §21).
    @inline(__always)
    public func range(_ axis: Axis) -> ClosedRange<Double> {
        let lo = -contentInsets.leadingEdge(axis)
        let hi = max(contentSize[axis] - containerSize[axis] + contentInsets.trailingEdge(axis), lo)
        // `hi ≥ lo ≥ lo − r` (r > 0): the bounds need no check, which `...` would make on every
        // call (callgrind: ~35 instructions per finger event).
        return ClosedRange(uncheckedBounds: (lower: lo - refreshLift[axis], upper: hi))
    }

    @inline(__always)
    func scrolls(_ axis: Axis) -> Bool { configuration.axes.contains(axis) }

    /// docs/design.md §12's usable area at offset `y` along `axis`, `U(y) = [y + a_lo + m, y + H −
    /// a_hi]`: what the pinned header (its `min_height` m) and the insets leave visible. Its upper
    /// bound lies below the lower one when they leave nothing.
    @inline(__always)
    func usableArea(at y: Double, _ axis: Axis) -> (lowerBound: Double, upperBound: Double) {
        let m = configuration.header?.minHeight ?? 0
        return (y + contentInsets.leadingEdge(axis) + m, y + containerSize[axis] - contentInsets.trailingEdge(axis))
    }

    /// `L = H − a_lo − a_hi − m`, the usable area's length along `axis` (negative when the
    /// header and insets cover the whole container).
    @inline(__always)
    func usableLength(_ axis: Axis) -> Double {
        let m = configuration.header?.minHeight ?? 0
        return containerSize[axis] - contentInsets.leadingEdge(axis) - contentInsets.trailingEdge(axis) - m
    }

    /// Moves the content to the current position and reads the offset back through the
    /// coordinate space and the preference, as a SwiftUI content-offset observer does.
    ///
    /// The content is the only view that writes `ScrollContentOriginKey`, so the tree's
    /// reduction is the key's `reduce` of that one value over the default — computed directly
    /// rather than by visiting every node, because this runs on every event and frame.
    /// `ContainerTests` check it against `ViewTree.preference`'s full walk.
    @usableFromInline
    mutating func layout() {
        tree.setOrigin(-position, of: contentNode)
        let reported = tree.frame(of: contentNode, in: contentSpace).origin
        var origin = ScrollContentOriginKey.defaultValue
        ScrollContentOriginKey.reduce(value: &origin) { reported }
        offsetObserver.update(origin) { origin in
            contentOffset = -(origin ?? .zero)
        }
        if revealedHeader.isSome { followHeader() }
        noteIndicators()
    }

    // MARK: Reading

    /// The phase now, from what drives the container, in this order: a hold (`tracking`), a drag
    /// or wheel gesture (`interacting`), a programmatic scroll or header snap (`animating`),
    /// momentum (`decelerating`), else `idle`.
    @inline(__always)
    public var phase: ScrollPhase {
        if holdDevice != nil { return .tracking }
        if drag != nil || wheel != nil { return .interacting }
        if motionX?.purpose == .animation || motionY?.purpose == .animation { return .animating }
        if motionX.isSome || motionY.isSome { return .decelerating }
        return .idle
    }

    /// Whether anything runs by itself and so needs frames.
    @inline(__always)
    public var isMoving: Bool { motionX.isSome || motionY.isSome || geometryAnimation.isSome }

    /// When the one-shot wheel timer must fire, if it is armed.
    @inline(__always)
    public var timerDeadline: Timestamp? {
        let hide = indicatorVisibility.hideAt
        guard let wheel, wheel.timerPending else { return hide }
        return hide.map { min($0, wheel.deadline) } ?? wheel.deadline
    }

    /// The published state at the container's current time.
    @inline(__always)
    public var state: ScrollState {
        let geometry = self.geometry
        let axis = configuration.listAxis
        // The top resting edge, `range(axis).lowerBound`, without building the range: its upper
        // bound and the range's check of its bounds cost every state ~15 instructions.
        let lo = -contentInsets.leadingEdge(axis)
        let header = configuration.header.map { header in
            // An `enterAlways` header's height is what it has followed to (docs/design.md §21).
            if let revealed = revealedHeader { return header.state(height: revealed.height) }
            return header.state(atDistanceFromTop: geometry.contentOffset[axis] - lo)
        }
        let rows = rowLayout.map { rows in
            let y = geometry.contentOffset[axis]
            guard rows.visibleIn == .usable else { return rows.visibleRows(from: y, to: y + geometry.containerSize[axis]) }
            let area = usableArea(at: y, axis)
            return rows.visibleRows(from: area.lowerBound, to: max(area.lowerBound, area.upperBound))
        }
        // App bars (docs/design.md §21), apart: a container without them pays one test.
        let bars: (sticky: StickyRow?, refreshing: Bool?) = appBarState
            ? Self.appBarFields(
                rows: rowLayout, refresh: configuration.refresh.isSome ? refreshing : nil,
                pinLine: geometry.contentOffset[axis] + contentInsets.leadingEdge(axis) + (header?.height ?? 0)
            )
            : (nil, nil)
        let indicators = indicators(geometry, headerHeight: header?.height ?? 0)
        return ScrollState(
            time: time, phase: phase, geometry: geometry, velocity: velocity, header: header, visibleRows: rows,
            stickyRow: bars.sticky, refreshing: bars.refreshing, indicators: indicators
        )
    }

    /// The state at `time`, evaluated from the running curves' closed forms. Nothing is decided
    /// here (no motion ends): that happens only on frame ticks.
    public mutating func state(at time: Timestamp) -> ScrollState {
        advance(to: time)
        layout()
        return state
    }
}

extension Optional {
    /// Whether there is a value, tested in place: `!= nil` on a large payload (a trajectory)
    /// copies it first, and these tests run several times per event.
    @inlinable
    var isSome: Bool {
        if case .some = self { return true }
        return false
    }
}
