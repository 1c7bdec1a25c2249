/// Microseconds on CLOCK_MONOTONIC, as libinput stamps its events. The engine's virtual clock
/// runs on the same scale, so replay and live input are the same computation.
public typealias Timestamp = Int64

/// The values an event carries per axis. An axis is present exactly when libinput's
/// `has_axis` is true for it; positive values mean down / right.
public struct AxisValues: Hashable, Sendable {
    /// The horizontal value; nil when the axis is absent (libinput's `has_axis` is false, or a
    /// request left `x` out). Positive is right.
    public var x: Double?
    /// The vertical value; nil when the axis is absent. Positive is down.
    public var y: Double?

    /// Creates values for the axes given; an axis left out is absent, which is not the same as 0
    /// (a present 0 in a finger or continuous event is a scroll stop).
    @inlinable
    public init(x: Double? = nil, y: Double? = nil) {
        self.x = x
        self.y = y
    }

    /// The value along `axis` (`x` or `y`), nil when absent (get and set).
    @inlinable
    public subscript(axis: Axis) -> Double? {
        get { axis == .horizontal ? x : y }
        set { if axis == .horizontal { x = newValue } else { y = newValue } }
    }
}

/// What a device can send, as the event log's `caps` array names it.
public struct DeviceCapabilities: OptionSet, Hashable, Sendable {
    /// Bits: 1 wheel, 2 finger, 4 continuous, 8 hold, 16 touch.
    public let rawValue: UInt8
    /// Creates a set from its bits (1 wheel, 2 finger, 4 continuous, 8 hold, 16 touch).
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Sends wheel clicks (`LIBINPUT_EVENT_POINTER_SCROLL_WHEEL`); `"wheel"` in the log.
    public static let wheel = DeviceCapabilities(rawValue: 1)
    /// Sends two-finger or edge scrolling (`LIBINPUT_EVENT_POINTER_SCROLL_FINGER`), a touchpad;
    /// `"finger"` in the log.
    public static let finger = DeviceCapabilities(rawValue: 2)
    /// Sends continuous scrolling (`LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS`), e.g. trackpoint
    /// button scrolling; `"continuous"` in the log.
    public static let continuous = DeviceCapabilities(rawValue: 4)
    /// Sends hold gestures (`LIBINPUT_EVENT_GESTURE_HOLD_BEGIN`/`_END`), fingers resting on a
    /// touchpad; `"hold"` in the log.
    public static let hold = DeviceCapabilities(rawValue: 8)
    /// Sends touches (`LIBINPUT_EVENT_TOUCH_*`), a touchscreen; `"touch"` in the log
    /// (docs/design.md §25).
    public static let touch = DeviceCapabilities(rawValue: 16)

    /// The names used by the event log, in their canonical order.
    public static let names: [(DeviceCapabilities, String)] = [
        (.wheel, "wheel"), (.finger, "finger"), (.continuous, "continuous"), (.hold, "hold"),
        (.touch, "touch"),
    ]
}

/// One input event: what libinput reported, stamped with its time and device.
public struct ScrollEvent: Hashable, Sendable {
    /// What happened, one case per event-log `type` (docs/design.md §3).
    public enum Kind: Hashable, Sendable {
        /// A device appeared (`device_added`): its name, which containers bound to devices match
        /// (``ContainerConfiguration/devices``), and what it can send. Not input: it publishes no
        /// state.
        case deviceAdded(name: String, capabilities: DeviceCapabilities)
        /// The device disappeared (`device_removed`). A drag or hold it was driving ends as a
        /// scroll stop would end it.
        case deviceRemoved
        /// LIBINPUT_EVENT_POINTER_SCROLL_WHEEL: v120 units (120 per detent), and the optional
        /// angle in degrees.
        case wheel(v120: AxisValues, degrees: AxisValues?)
        /// LIBINPUT_EVENT_POINTER_SCROLL_FINGER: pixels-like deltas; a present 0 is a stop.
        case finger(AxisValues)
        /// LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS (trackpoint button scrolling and the like).
        case continuous(AxisValues)
        /// Fingers came to rest on the touchpad (`hold_begin`): any running motion stops where it
        /// is and the phase becomes ``ScrollPhase/tracking``.
        case holdBegin(fingers: Int)
        /// The fingers lifted (`hold_end`). Without a drag in between the container rests, or
        /// bounces back from beyond an edge; `cancelled` is true when the hold turned into another
        /// gesture (typically a scroll, whose deltas follow as a normal drag).
        case holdEnd(fingers: Int, cancelled: Bool)
        /// A finger touched a touchscreen (`touch_down`, LIBINPUT_EVENT_TOUCH_DOWN): its `slot`
        /// and where, in the screen's normalized coordinates ([0, 1] × [0, 1], docs/design.md
        /// §25).
        case touchDown(slot: Int, at: Point)
        /// The finger in `slot` moved (`touch_motion`), to `at`, normalized.
        case touchMotion(slot: Int, at: Point)
        /// The finger in `slot` lifted (`touch_up`).
        case touchUp(slot: Int)
        /// The touch in `slot` was cancelled (`touch_cancel`): a drag ends as a lift with zero
        /// velocity.
        case touchCancel(slot: Int)
    }

    /// When it happened: µs on CLOCK_MONOTONIC, libinput's own timestamp (the log's `t`).
    public var time: Timestamp
    /// The device that sent it: an id stable within one log or daemon run (the log's `dev`).
    public var device: Int
    /// What happened and its values.
    public var kind: Kind

    /// Creates an event stamped at `time` (µs) from `device`.
    @inlinable
    public init(time: Timestamp, device: Int, kind: Kind) {
        self.time = time
        self.device = device
        self.kind = kind
    }

    /// Whether the event is scroll or gesture input, as opposed to a device coming or going.
    @inlinable
    public var isInput: Bool {
        switch kind {
        case .deviceAdded, .deviceRemoved: return false
        default: return true
        }
    }
}
