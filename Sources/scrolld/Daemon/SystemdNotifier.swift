import CSystemd
import Logging
import ScrollPOSIX

/// Readiness, status, watchdog and stopping messages to the service manager (sd_notify(3)),
/// queued for the ``NotificationSender``'s thread: the loop, which sends the status and the
/// watchdog's pings, never waits for a manager that does not read. Without `$NOTIFY_SOCKET`
/// (not started by systemd) every call is a no-op.
struct SystemdNotifier: Sendable {
    /// The daemon's one sender (the file descriptor store's messages go through it too, in
    /// the same order); nil: no service manager listens.
    let sender: NotificationSender?

    init(environment: [String: String], logger: Logger) {
        sender = NotificationSender(address: environment["NOTIFY_SOCKET"], logger: logger)
    }

    /// Starts the sender's thread.
    func start() throws(ThreadStartError) {
        try sender?.start()
    }

    /// Queues `state` (e.g. "READY=1\nSTATUS=…"); failures are ignored, as sd_notify's callers do.
    func notify(_ state: String) {
        sender?.send(state)
    }

    /// Sends what waits and ends the sender's thread (at a clean stop).
    func finish() {
        sender?.finish()
    }

    /// The watchdog interval systemd asked for in µs, if it asked for one for this process
    /// (`sd_watchdog_enabled`: `$WATCHDOG_USEC`, and `$WATCHDOG_PID` naming this process).
    static func watchdogInterval() -> Int64? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return Int64(clamping: usec)
    }
}
