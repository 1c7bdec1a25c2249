import ScrollConfig
import ScrollModel
import ScrollProtocol

/// Where the daemon's input comes from (libinput on its own thread, or a replayed log), as the
/// daemon's logic sees it.
///
/// Frames must never run before input that happened earlier, or live states would differ from
/// a replay of the same events. A source may hold events back (libinput's own timers, a read in
/// progress on another thread), so before running frames the core asks it for a barrier: the
/// source hands over everything it has, then answers, on the loop, with the moment it read —
/// everything stamped before that is then applied, in order.
package protocol InputSource: AnyObject {
    /// The input devices in use (the `devices` request, systemd's STATUS).
    var devices: [DeviceInfo] { get }
    /// Puts new `[input]` settings in force (after a reload).
    func apply(_ settings: InputSettings)
    /// Calls `passed` on the loop once every event read up to the time it is given has been
    /// handed to the loop.
    func barrier(_ passed: @escaping @Sendable (Timestamp) -> Void)
    /// Whether the devices are read now, or paused and why (docs/design.md §15).
    var inputState: InputState { get }
}

extension InputSource {
    /// A source that follows no session (a replay) is always active.
    package var inputState: InputState { .active }
}

/// Who hears that the daemon's device or client count changed (systemd's STATUS=).
package protocol DaemonStatusObserver: AnyObject {
    func statusChanged(devices: Int, clients: Int)
}

/// Where a recorded session's lines go (`run --record`): a file, in the daemon.
package protocol RecordingSink: AnyObject {
    /// What the log says the recording is written to.
    var path: String { get }
    /// Appends `bytes`; the failure, described, when they could not all be written.
    func write(_ bytes: [UInt8]) -> String?
}
