import CSystemd

/// libsystemd's `sd_notify(3)`: readiness, status, watchdog and stopping messages to the
/// service manager. Without `$NOTIFY_SOCKET` (not started by systemd) every call is a no-op.
struct SystemdNotifier: Sendable {
    /// Whether systemd listens for this process' messages.
    let isEnabled: Bool

    init(environment: [String: String]) {
        isEnabled = !(environment["NOTIFY_SOCKET"] ?? "").isEmpty
    }

    /// Sends `state` (e.g. "READY=1\nSTATUS=…"); failures are ignored, as sd_notify's callers do.
    func notify(_ state: String) {
        guard isEnabled else { return }
        _ = sd_notify(0, state)
    }

    /// The watchdog interval systemd asked for in µs, if it asked for one for this process
    /// (`sd_watchdog_enabled`: `$WATCHDOG_USEC`, and `$WATCHDOG_PID` naming this process).
    static func watchdogInterval() -> Int64? {
        var usec: UInt64 = 0
        guard sd_watchdog_enabled(0, &usec) > 0, usec > 0 else { return nil }
        return Int64(clamping: usec)
    }
}
