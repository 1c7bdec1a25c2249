/// Microseconds on CLOCK_MONOTONIC, as libinput stamps its events. The engine's virtual clock
/// runs on the same scale, so replay and live input are the same computation.
public typealias Timestamp = Int64

/// The values an event carries per axis. An axis is present exactly when libinput's
/// `has_axis` is true for it; positive values mean down / right.
public struct AxisValues: Hashable, Sendable {
    public var x: Double?
    public var y: Double?

    @inlinable
    public init(x: Double? = nil, y: Double? = nil) {
        self.x = x
        self.y = y
    }

    @inlinable
    public subscript(axis: Axis) -> Double? {
        get { axis == .horizontal ? x : y }
        set { if axis == .horizontal { x = newValue } else { y = newValue } }
    }
}

/// What a device can send, as the event log's `caps` array names it.
public struct DeviceCapabilities: OptionSet, Hashable, Sendable {
    public let rawValue: UInt8
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let wheel = DeviceCapabilities(rawValue: 1)
    public static let finger = DeviceCapabilities(rawValue: 2)
    public static let continuous = DeviceCapabilities(rawValue: 4)
    public static let hold = DeviceCapabilities(rawValue: 8)

    /// The names used by the event log, in their canonical order.
    public static let names: [(DeviceCapabilities, String)] = [
        (.wheel, "wheel"), (.finger, "finger"), (.continuous, "continuous"), (.hold, "hold"),
    ]
}

/// One input event: what libinput reported, stamped with its time and device.
public struct ScrollEvent: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        case deviceAdded(name: String, capabilities: DeviceCapabilities)
        case deviceRemoved
        /// LIBINPUT_EVENT_POINTER_SCROLL_WHEEL: v120 units (120 per detent), and the optional
        /// angle in degrees.
        case wheel(v120: AxisValues, degrees: AxisValues?)
        /// LIBINPUT_EVENT_POINTER_SCROLL_FINGER: pixels-like deltas; a present 0 is a stop.
        case finger(AxisValues)
        /// LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS (trackpoint button scrolling and the like).
        case continuous(AxisValues)
        case holdBegin(fingers: Int)
        case holdEnd(fingers: Int, cancelled: Bool)
    }

    public var time: Timestamp
    public var device: Int
    public var kind: Kind

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
