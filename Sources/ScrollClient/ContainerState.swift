import ScrollModel
import ScrollProtocol

/// A container's state as the daemon published it (docs/design.md §4, every field of
/// docs/protocol.md's "The state"), typed: SwiftUI's `ScrollPhase`, points and sizes in px.
public struct ContainerState: Hashable, Sendable {
    /// The container's name.
    public var container: String
    /// The container's published states so far, from 1; a gap means states were coalesced
    /// (latest wins) for this subscriber, or this client fell more than 1024 states behind.
    public var seq: Int
    /// When the state holds, µs of `CLOCK_MONOTONIC` (live) or of the replayed log; only
    /// differences mean anything.
    public var time: Timestamp
    /// `idle`, `tracking`, `interacting`, `decelerating` or `animating`.
    public var phase: ScrollPhase
    /// Where the content's origin is, negated: `y` is how far the content has moved up, px.
    public var contentOffset: Point
    /// The offset's rate of change, px/s.
    public var velocity: Point
    /// The content's size, px.
    public var contentSize: Size
    /// The visible size, px.
    public var containerSize: Size
    /// The content insets, px.
    public var contentInsets: EdgeInsets
    /// The header's height and progress (0 expanded, 1 collapsed); nil without a header.
    public var header: HeaderState?
    /// The first and last visible row; nil without rows.
    public var visibleRows: VisibleRows?
    /// The sticky row pinned at the pin line and where its top is drawn (docs/design.md §21); nil
    /// when none is pinned.
    public var stickyRow: StickyRow?
    /// Whether a refresh runs (docs/design.md §21); nil for a container without `refresh`.
    public var refreshing: Bool?
    /// The scroll indicators of the axes the container scrolls (docs/design.md §22): each
    /// thumb's offset along its track, its length, and whether it shows; nil from a daemon
    /// without them.
    public var indicators: ScrollIndicators?
    /// Whether the container is paused: input does not reach it (docs/design.md §19).
    public var paused: Bool
    /// Whether this is the first state after the client reconnected (``ScrollClient/connect(socket:timeout:reconnect:restoreOffsets:)``
    /// with `reconnect`): what happened while it was away was not seen, and after a restart of
    /// the daemon `seq` starts over.
    public var resumed: Bool

    /// A state from its fields.
    public init(
        container: String, seq: Int, time: Timestamp, phase: ScrollPhase, contentOffset: Point, velocity: Point,
        contentSize: Size, containerSize: Size, contentInsets: EdgeInsets, header: HeaderState? = nil,
        visibleRows: VisibleRows? = nil, indicators: ScrollIndicators? = nil, paused: Bool = false, resumed: Bool = false,
        stickyRow: StickyRow? = nil, refreshing: Bool? = nil
    ) {
        self.container = container
        self.seq = seq
        self.time = time
        self.phase = phase
        self.contentOffset = contentOffset
        self.velocity = velocity
        self.contentSize = contentSize
        self.containerSize = containerSize
        self.contentInsets = contentInsets
        self.header = header
        self.visibleRows = visibleRows
        self.stickyRow = stickyRow
        self.refreshing = refreshing
        self.indicators = indicators
        self.paused = paused
        self.resumed = resumed
    }

    /// A state line as decoded.
    init(_ line: StateLine, resumed: Bool = false) {
        let state = line.state
        self.init(
            container: line.container, seq: line.seq, time: state.time, phase: state.phase,
            contentOffset: state.geometry.contentOffset, velocity: state.velocity,
            contentSize: state.geometry.contentSize, containerSize: state.geometry.containerSize,
            contentInsets: state.geometry.contentInsets, header: state.header, visibleRows: state.visibleRows,
            indicators: state.indicators, paused: line.paused, resumed: resumed, stickyRow: state.stickyRow, refreshing: state.refreshing
        )
    }
}

/// The daemon's greeting on connect (docs/design.md §7, §14, §19), every field of it.
public struct Welcome: Hashable, Sendable {
    /// The protocol version (1).
    public var `protocol`: Int
    /// `scrolld VERSION`.
    public var server: String
    /// The containers at that moment.
    public var containers: [String]
    /// The extensions the daemon implements (`"positions"`, `"observe"`, `"routing"`, …): check
    /// for one before relying on it.
    public var features: [String]
    /// A random id per start of the daemon: another one means a new daemon (nil before docs/design.md §19).
    public var instance: String?
    /// The container that has the focus (docs/design.md §14), nil when none has it.
    public var focus: String?

    /// A welcome from its fields.
    public init(protocol: Int, server: String, containers: [String], features: [String] = [], instance: String? = nil, focus: String? = nil) {
        self.protocol = `protocol`
        self.server = server
        self.containers = containers
        self.features = features
        self.instance = instance
        self.focus = focus
    }

    /// The welcome line's fields; nil when the line is not a welcome.
    init?(line: [UInt8]) {
        guard let welcome = try? ReplyDecoder.welcome(line) else { return nil }
        var focus: String?
        if case .string(let name)? = (try? ProtocolValue(parsing: line))?[member: "focus"] { focus = name }
        self.init(
            protocol: welcome.protocol, server: welcome.server, containers: welcome.containers,
            features: welcome.features, instance: welcome.instance, focus: focus
        )
    }
}

/// The `devices` reply (docs/design.md §9, §14, §15).
public struct Devices: Hashable, Sendable {
    /// The input devices the daemon has open.
    public var devices: [DeviceInfo]
    /// Whether the daemon reads them now (paused while its user is not at the seat, or while
    /// the system sleeps); nil from a daemon that does not say.
    public var input: InputState?
    /// The container that has the focus, nil when none has it.
    public var focus: String?

    /// A reply from its fields.
    public init(devices: [DeviceInfo], input: InputState?, focus: String?) {
        self.devices = devices
        self.input = input
        self.focus = focus
    }
}
