import ScrollConfig
import ScrollModel
import ScrollProtocol

/// One thing that happens to a session (docs/design.md §17): the live daemon and the replayer
/// build the same commands, and ``Session/apply(_:)`` is the only way a session changes.
///
/// The cases other than input and time are `indirect`: they are rare, and held inline the
/// largest of them made every command as large, copied twice per input event.
public enum Command: Sendable {
    /// An input event, applied at its time (or at the session's, when that is later: live,
    /// input can reach the loop after a frame or request it predates).
    case input(ScrollEvent)
    /// A request from connection `client` that changes containers: `configure`, `scrollTo`,
    /// `scrollBy`, `pause`, `resume`, `remove` or `focus`.
    indirect case request(Operation, client: Int, at: Timestamp)
    /// A whole configuration put in force: the file's, read again (`client` 0), or a client's
    /// `reload`. `initial`: the configuration a recording opens with, describing containers
    /// that already existed live (those it creates publish nothing).
    indirect case reload(Configuration, client: Int, at: Timestamp, initial: Bool = false)
    /// The user's desktop settings changed (docs/design.md §23): they apply from each device's
    /// next event, and reduced motion to every container at once.
    indirect case desktop(DesktopInput, at: Timestamp)
    /// What a restart took back from the previous process (docs/design.md §16).
    indirect case restore(Restoration, at: Timestamp)
    /// Time passing: every frame and timer due by the instant runs, and the session is then
    /// at that instant.
    case advance(to: Timestamp)
    /// Time passing live: every frame and timer due by the instant runs, and the session stays
    /// at the last of them, so input stamped before the instant that reaches the loop after it
    /// still applies (and is recorded) at its own time (``ScrollEngine/runDeadlines(dueBy:_:)``).
    case runDeadlines(dueBy: Timestamp)
}

/// The containers a restart takes back, and the focus it had.
public struct Restoration: Hashable, Sendable {
    public var containers: [RestoredContainer]
    /// The focused container's name; nil: none.
    public var focus: String?

    public init(containers: [RestoredContainer], focus: String?) {
        self.containers = containers
        self.focus = focus
    }
}
