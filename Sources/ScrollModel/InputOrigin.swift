/// Where a container's last input came from (docs/design.md §13's `source` observation): the
/// device, its name, and the kind of event.
public struct InputOrigin: Hashable, Sendable {
    /// The kind of input event, as the event log names it.
    public enum Kind: String, Hashable, Sendable {
        /// A wheel event (`wheel`).
        case wheel
        /// Two-finger or edge scrolling (`finger`).
        case finger
        /// Continuous scrolling, e.g. trackpoint button scrolling (`continuous`).
        case continuous
        /// A finger on a touchscreen (`touch_down`, `touch_motion`, …; docs/design.md §25).
        case touch
    }

    /// The device id (the log's `dev`).
    public var device: Int
    /// The device's name from its `device_added`; nil for a device never announced.
    public var name: String?
    /// What it sent.
    public var kind: Kind

    /// An origin.
    public init(device: Int, name: String?, kind: Kind) {
        self.device = device
        self.name = name
        self.kind = kind
    }

    /// The kind of a scroll event; nil for events that are not scroll input (holds, devices).
    @inlinable
    public static func kind(of event: ScrollEvent.Kind) -> Kind? {
        switch event {
        case .wheel: return .wheel
        case .finger: return .finger
        case .continuous: return .continuous
        case .touchDown, .touchMotion, .touchUp, .touchCancel: return .touch
        default: return nil
        }
    }
}
