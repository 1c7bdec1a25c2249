import ScrollModel
import ScrollProtocol

/// What a `configure` request sets (docs/design.md §7, §12, §14, §19; docs/config.md's
/// `[containers.NAME]`): every key is optional, and only the keys given change. A new container
/// takes the defaults for the others.
///
/// ```swift
/// try await scrolld.configure("feed", ContainerSettings(
///     containerSize: Size(width: 400, height: 600),
///     header: .init(minHeight: 60, maxHeight: 200),
///     rows: .uniform(count: 100, height: 44)
/// ), owned: true)
/// ```
///
/// Keys this version does not type yet (a newer daemon's) go in ``additional`` as JSON values,
/// named as the protocol names them.
public struct ContainerSettings: Hashable, Sendable {
    /// The visible size, px (`containerSize`).
    public var containerSize: Size?
    /// The content's size, px (`contentSize`); unset: 800×20000, or the ideal size for rows or a
    /// header.
    public var contentSize: Size?
    /// The content insets, px (`contentInsets`).
    public var contentInsets: EdgeInsets?
    /// The axes it scrolls along (`axes`).
    public var axes: ScrollAxes?
    /// A collapsing header (`header`); its members given change, the others stay.
    public var header: Header?
    /// The rows, described anew or edited (`rows`).
    public var rows: Rows?
    /// Physics for this container alone (`physics`); its keys given change, the others stay.
    public var physics: Physics?
    /// Where releases aim (`scrollTarget`).
    public var scrollTarget: ScrollTargetBehavior?
    /// The edge it starts at and holds on to (`anchor`, docs/design.md §12).
    public var anchor: DefaultScrollAnchor?
    /// The devices that drive it, by name (`devices`); empty: every device.
    public var devices: [String]?
    /// The container it is nested in (`parent`, docs/design.md §14): ``Parent/container(_:)``, or
    /// ``Parent/none`` to take it out again.
    public var parent: Parent?
    /// What a gesture pushing against an edge does (`overscroll`).
    public var overscroll: OverscrollBehavior?
    /// Where it lies on a touchscreen (`touch_frame`, docs/design.md §25): a finger down inside
    /// it drags and flings it.
    public var touchFrame: TouchFrame?
    /// Pull to refresh (`refresh`, docs/design.md §21): ``Refresh/pull(threshold:height:)``, or
    /// ``Refresh/none`` to take it away.
    public var refresh: Refresh?
    /// The directional lock, bounce, snapping and indicators (docs/design.md §22); its keys
    /// given change, the others stay.
    public var gestures: Gestures?
    /// Any other key, as the protocol names it, with its JSON value (keys of a newer daemon).
    public var additional: [String: ProtocolValue]

    /// Settings from their keys; every one left nil stays as it is.
    public init(
        containerSize: Size? = nil, contentSize: Size? = nil, contentInsets: EdgeInsets? = nil, axes: ScrollAxes? = nil,
        header: Header? = nil, rows: Rows? = nil, physics: Physics? = nil, scrollTarget: ScrollTargetBehavior? = nil,
        anchor: DefaultScrollAnchor? = nil, devices: [String]? = nil, parent: Parent? = nil,
        overscroll: OverscrollBehavior? = nil, touchFrame: TouchFrame? = nil, refresh: Refresh? = nil, gestures: Gestures? = nil, additional: [String: ProtocolValue] = [:]
    ) {
        self.containerSize = containerSize
        self.contentSize = contentSize
        self.contentInsets = contentInsets
        self.axes = axes
        self.header = header
        self.rows = rows
        self.physics = physics
        self.scrollTarget = scrollTarget
        self.anchor = anchor
        self.devices = devices
        self.parent = parent
        self.overscroll = overscroll
        self.touchFrame = touchFrame
        self.refresh = refresh
        self.gestures = gestures
        self.additional = additional
    }

    /// Pull to refresh (docs/design.md §21).
    public enum Refresh: Hashable, Sendable {
        /// A drag released `threshold` px beyond the top starts a refresh, and the container
        /// rests `height` px beyond it (0 < height ≤ threshold) until ``ScrollClient/endRefresh(_:)``.
        case pull(threshold: Double, height: Double)
        /// No pull to refresh (`"refresh": null`).
        case none

        var value: ProtocolValue {
            switch self {
            case let .pull(threshold, height): .object([("threshold", .double(threshold)), ("height", .double(height))])
            case .none: .null
            }
        }
    }

    /// The axes a container scrolls along.
    public enum ScrollAxes: String, Hashable, Sendable, CaseIterable {
        case vertical, horizontal, both
    }

    /// A collapsing header (docs/config.md `[containers.NAME.header]`).
    public struct Header: Hashable, Sendable {
        /// px when collapsed (default 0).
        public var minHeight: Double?
        /// px when expanded (required when the container gets its first header).
        public var maxHeight: Double?
        /// Whether it grows beyond `maxHeight` while pulled past the top (default true).
        public var stretch: Bool?
        /// Whether, coming to rest half way, it animates to expanded or collapsed (default true).
        public var snap: Bool?
        /// `pinned` (default) or `enterAlways`: quick return (docs/design.md §21).
        public var mode: HeaderMode?

        /// A header from its keys.
        public init(minHeight: Double? = nil, maxHeight: Double? = nil, stretch: Bool? = nil, snap: Bool? = nil, mode: HeaderMode? = nil) {
            self.minHeight = minHeight
            self.maxHeight = maxHeight
            self.stretch = stretch
            self.snap = snap
            self.mode = mode
        }

        /// Later keys win over earlier ones.
        func merged(with later: Header) -> Header {
            Header(
                minHeight: later.minHeight ?? minHeight, maxHeight: later.maxHeight ?? maxHeight,
                stretch: later.stretch ?? stretch, snap: later.snap ?? snap, mode: later.mode ?? mode
            )
        }

        var value: ProtocolValue {
            var members: [(String, ProtocolValue)] = []
            if let minHeight { members.append(("minHeight", .double(minHeight))) }
            if let maxHeight { members.append(("maxHeight", .double(maxHeight))) }
            if let stretch { members.append(("stretch", .bool(stretch))) }
            if let snap { members.append(("snap", .bool(snap))) }
            if let mode { members.append(("mode", .string(mode.rawValue))) }
            return .object(members)
        }
    }

    /// The container a container is nested in.
    public enum Parent: Hashable, Sendable {
        /// Nested in this container.
        case container(String)
        /// Not nested (`"parent": null`).
        case none
    }

    /// Physics for one container (docs/physics.md; docs/config.md `[physics]`): every key is
    /// optional, and only those given change.
    public struct Physics: Hashable, Sendable {
        /// `ios`, `gtk` or `none`: the defaults of the keys not given.
        public var profile: String?
        /// px per wheel detent; nil keeps it (`wheelStepAuto` sets `auto`).
        public var wheelStep: Double?
        /// `wheel_step = "auto"`: `H^(2/3)`.
        public var wheelStepAuto: Bool?
        /// `smooth` (a spring) or `none` (a jump).
        public var wheelAnimation: String?
        /// s; the wheel spring's `ω = 2π / wheelDuration`.
        public var wheelDuration: Double?
        /// s of wheel silence before a wheel gesture ends.
        public var wheelIdle: Double?
        /// Multiplies finger and continuous deltas.
        public var fingerScale: Double?
        /// The rubber band's `c`.
        public var rubberBand: Double?
        /// Whether drags and flings may pass an edge.
        public var overscroll: Bool?
        /// Whether a release may fling.
        public var momentum: Bool?
        /// px/s; slower releases rest.
        public var minFlingVelocity: Double?
        /// s of event time the release velocity is measured over.
        public var velocityWindow: Double?
        /// per ms (`ios` deceleration).
        public var decelerationRate: Double?
        /// px; an `ios` fling ends this close to its end point.
        public var decelerationEndDistance: Double?
        /// The bounce spring's stiffness.
        public var bounceStiffness: Double?
        /// px; a spring has settled this close to its target…
        public var settleDistance: Double?
        /// px/s; …and slower than this.
        public var settleVelocity: Double?
        /// 1/s (`gtk` deceleration).
        public var friction: Double?
        /// px/s; a `gtk` fling ends below this speed.
        public var stopVelocity: Double?
        /// px; a linear overshoot limit while dragging, instead of the rubber band.
        public var dragOvershootLimit: Double?
        /// px; the overshoot limit of a fling's bounce.
        public var flingOvershootLimit: Double?
        /// px; how far a finger on a touchscreen moves before the content follows it, and then
        /// lags it (docs/design.md §25; 0…10 000).
        public var touchSlop: Double?

        /// Physics from their keys.
        public init(
            profile: String? = nil, wheelStep: Double? = nil, wheelStepAuto: Bool? = nil, wheelAnimation: String? = nil,
            wheelDuration: Double? = nil, wheelIdle: Double? = nil, fingerScale: Double? = nil, rubberBand: Double? = nil,
            overscroll: Bool? = nil, momentum: Bool? = nil, minFlingVelocity: Double? = nil, velocityWindow: Double? = nil,
            decelerationRate: Double? = nil, decelerationEndDistance: Double? = nil, bounceStiffness: Double? = nil,
            settleDistance: Double? = nil, settleVelocity: Double? = nil, friction: Double? = nil, stopVelocity: Double? = nil,
            dragOvershootLimit: Double? = nil, flingOvershootLimit: Double? = nil, touchSlop: Double? = nil
        ) {
            self.profile = profile
            self.wheelStep = wheelStep
            self.wheelStepAuto = wheelStepAuto
            self.wheelAnimation = wheelAnimation
            self.wheelDuration = wheelDuration
            self.wheelIdle = wheelIdle
            self.fingerScale = fingerScale
            self.rubberBand = rubberBand
            self.overscroll = overscroll
            self.momentum = momentum
            self.minFlingVelocity = minFlingVelocity
            self.velocityWindow = velocityWindow
            self.decelerationRate = decelerationRate
            self.decelerationEndDistance = decelerationEndDistance
            self.bounceStiffness = bounceStiffness
            self.settleDistance = settleDistance
            self.settleVelocity = settleVelocity
            self.friction = friction
            self.stopVelocity = stopVelocity
            self.dragOvershootLimit = dragOvershootLimit
            self.flingOvershootLimit = flingOvershootLimit
            self.touchSlop = touchSlop
        }

        /// The keys given, in docs/physics.md's order, as the protocol names them.
        var members: [(String, ProtocolValue)] {
            var members: [(String, ProtocolValue)] = []
            func add(_ name: String, _ value: Double?) { if let value { members.append((name, .double(value))) } }
            func add(_ name: String, _ value: Bool?) { if let value { members.append((name, .bool(value))) } }
            if let profile { members.append(("profile", .string(profile))) }
            if wheelStepAuto == true {
                members.append(("wheelStep", .string("auto")))
            } else {
                add("wheelStep", wheelStep)
            }
            if let wheelAnimation { members.append(("wheelAnimation", .string(wheelAnimation))) }
            add("wheelDuration", wheelDuration)
            add("wheelIdle", wheelIdle)
            add("fingerScale", fingerScale)
            add("rubberBand", rubberBand)
            add("overscroll", overscroll)
            add("momentum", momentum)
            add("minFlingVelocity", minFlingVelocity)
            add("velocityWindow", velocityWindow)
            add("decelerationRate", decelerationRate)
            add("decelerationEndDistance", decelerationEndDistance)
            add("bounceStiffness", bounceStiffness)
            add("settleDistance", settleDistance)
            add("settleVelocity", settleVelocity)
            add("friction", friction)
            add("stopVelocity", stopVelocity)
            add("dragOvershootLimit", dragOvershootLimit)
            add("flingOvershootLimit", flingOvershootLimit)
            add("touchSlop", touchSlop)
            return members
        }

        /// Later keys win over earlier ones (a `wheelStep` and `wheelStepAuto` replace each other).
        func merged(with later: Physics) -> Physics {
            var result = self
            let laterStep = later.wheelStep != nil || later.wheelStepAuto != nil
            result.profile = later.profile ?? profile
            result.wheelStep = laterStep ? later.wheelStep : wheelStep
            result.wheelStepAuto = laterStep ? later.wheelStepAuto : wheelStepAuto
            result.wheelAnimation = later.wheelAnimation ?? wheelAnimation
            result.wheelDuration = later.wheelDuration ?? wheelDuration
            result.wheelIdle = later.wheelIdle ?? wheelIdle
            result.fingerScale = later.fingerScale ?? fingerScale
            result.rubberBand = later.rubberBand ?? rubberBand
            result.overscroll = later.overscroll ?? overscroll
            result.momentum = later.momentum ?? momentum
            result.minFlingVelocity = later.minFlingVelocity ?? minFlingVelocity
            result.velocityWindow = later.velocityWindow ?? velocityWindow
            result.decelerationRate = later.decelerationRate ?? decelerationRate
            result.decelerationEndDistance = later.decelerationEndDistance ?? decelerationEndDistance
            result.bounceStiffness = later.bounceStiffness ?? bounceStiffness
            result.settleDistance = later.settleDistance ?? settleDistance
            result.settleVelocity = later.settleVelocity ?? settleVelocity
            result.friction = later.friction ?? friction
            result.stopVelocity = later.stopVelocity ?? stopVelocity
            result.dragOvershootLimit = later.dragOvershootLimit ?? dragOvershootLimit
            result.flingOvershootLimit = later.flingOvershootLimit ?? flingOvershootLimit
            result.touchSlop = later.touchSlop ?? touchSlop
            return result
        }
    }

    /// The request's members, in docs/protocol.md's order.
    var members: [(String, ProtocolValue)] {
        var members: [(String, ProtocolValue)] = []
        if let containerSize { members.append(("containerSize", .size(containerSize))) }
        if let contentSize { members.append(("contentSize", .size(contentSize))) }
        if let contentInsets { members.append(("contentInsets", .insets(contentInsets))) }
        if let axes { members.append(("axes", .string(axes.rawValue))) }
        if let header { members.append(("header", header.value)) }
        if let rows { members.append(("rows", rows.value)) }
        if let physics { members.append(("physics", .object(physics.members))) }
        if let scrollTarget { members.append(("scrollTarget", .string(scrollTarget.rawValue))) }
        if let anchor { members.append(("anchor", .string(anchor.rawValue))) }
        if let devices { members.append(("devices", .array(devices.map { .string($0) }))) }
        switch parent {
        case .container(let name)?: members.append(("parent", .string(name)))
        case .none?: members.append(("parent", .null))
        case nil: break
        }
        if let overscroll { members.append(("overscroll", .string(overscroll.rawValue))) }
        // The protocol spells this key so (docs/protocol.md, "Touchscreens").
        if let touchFrame { members.append(("touchFrame", touchFrame.value)) }
        if let refresh { members.append(("refresh", refresh.value)) }
        if let gestures { members += gestures.members }
        for key in additional.keys.sorted() { members.append((key, additional[key]!)) }
        return members
    }
}
