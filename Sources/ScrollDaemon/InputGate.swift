import ScrollProtocol

/// Whether the daemon may read its input devices, from what systemd-logind says about its seat
/// (docs/design.md §15): only while a session of the daemon's user is the seat's active session,
/// and not while the system sleeps.
///
/// Pure: the logind watcher in the executable feeds it facts as signals arrive and acts on the
/// state it answers (closing or reopening the devices, one log line per transition).
package struct InputGate: Hashable, Sendable {
    /// The seat's active session, as logind describes it.
    package struct ActiveSession: Hashable, Sendable {
        /// logind's session id ("2", "c1").
        package var id: String
        /// The uid the session belongs to (the session's `User`).
        package var uid: UInt32
        /// The session's `Active` property: false while its VT is not shown, even when the
        /// seat still names it (logind updates both at once, but says so in two signals).
        package var isActive: Bool

        package init(id: String, uid: UInt32, isActive: Bool) {
            self.id = id
            self.uid = uid
            self.isActive = isActive
        }
    }

    /// A change of state, and the log line that says so.
    package struct Transition: Hashable, Sendable {
        package var from: InputState
        package var to: InputState
        package var message: String
    }

    /// The daemon's own uid.
    package let uid: UInt32
    /// The seat the daemon reads (`daemon.seat`, else `$XDG_SEAT`, else seat0).
    package let seat: String
    /// The seat's active session; nil when it has none (a greeter between users, no login).
    package private(set) var activeSession: ActiveSession?
    /// Between `PrepareForSleep(true)` and `PrepareForSleep(false)`.
    package private(set) var isSleeping = false

    /// Before logind has been asked: active, so that a daemon whose watcher cannot start reads
    /// input as before.
    package init(uid: UInt32, seat: String) {
        self.uid = uid
        self.seat = seat
        activeSession = ActiveSession(id: "", uid: uid, isActive: true)
    }

    /// What the facts allow. Sleep wins over the session: it is the more recent reason, and the
    /// one that ends with the devices found anew.
    package var state: InputState {
        if isSleeping { return .paused(.sleep) }
        guard let session = activeSession, session.uid == uid, session.isActive else { return .paused(.sessionInactive) }
        return .active
    }

    /// The seat's active session changed (or was read); the transition it makes, if any.
    package mutating func setActiveSession(_ session: ActiveSession?) -> Transition? {
        let before = state
        activeSession = session
        return transition(from: before)
    }

    /// `PrepareForSleep(sleeping)`; the transition it makes, if any.
    package mutating func setSleeping(_ sleeping: Bool) -> Transition? {
        let before = state
        isSleeping = sleeping
        return transition(from: before, waking: before.reason == .sleep && !sleeping)
    }

    private func transition(from before: InputState, waking: Bool = false) -> Transition? {
        let after = state
        guard after != before else { return nil }
        return Transition(from: before, to: after, message: message(to: after, waking: waking))
    }

    /// The log line of a transition to `after`: what happened, and what the daemon does.
    private func message(to after: InputState, waking: Bool) -> String {
        switch after.reason {
        case .sleep?:
            return "input paused: sleep (the system is about to sleep; every input device is closed)"
        case .sessionInactive?:
            if waking { return "input paused: session_inactive (the system woke up, but \(sessionDescription); every input device stays closed)" }
            return "input paused: session_inactive (\(sessionDescription); every input device is closed)"
        case nil:
            return "input resumed: \(waking ? "the system woke up, " : "")\(sessionDescription) (input devices found anew)"
        }
    }

    /// Who is at the seat, in words.
    private var sessionDescription: String {
        guard let session = activeSession else { return "\(seat) has no active session" }
        let whose = session.uid == uid ? "this user's" : "uid \(session.uid)'s"
        let name = session.id.isEmpty ? "" : " \(session.id)"
        if !session.isActive { return "\(whose) session\(name) on \(seat) is not active" }
        return "\(whose) session\(name) is the active session of \(seat)"
    }
}
