/// Whether the daemon reads its input devices now (docs/design.md §15), as the `devices` reply
/// says: `"input":{"state":"active"|"paused","reason":"session_inactive"|"sleep"|null}`.
public struct InputState: Hashable, Sendable {
    /// Why input is paused.
    public enum Reason: String, Hashable, Sendable, CaseIterable {
        /// No session of the daemon's user is the active session of its seat (another user's
        /// session, or this user's on a VT that is not shown).
        case sessionInactive = "session_inactive"
        /// The system is about to sleep, or sleeping.
        case sleep
    }

    /// Why input is paused; nil while it is read.
    public var reason: Reason?

    public init(pausedBecause reason: Reason?) {
        self.reason = reason
    }

    /// Every input device is open and read.
    public static let active = InputState(pausedBecause: nil)

    /// Every input device is closed, for `reason`.
    public static func paused(_ reason: Reason) -> InputState { InputState(pausedBecause: reason) }

    public var isActive: Bool { reason == nil }

    /// "active" or "paused", as the wire spells it.
    public var stateName: String { isActive ? "active" : "paused" }
}
