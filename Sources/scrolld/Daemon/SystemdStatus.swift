import ScrollDaemon

/// Tells systemd the daemon's device and client counts (`STATUS=`, shown by `systemctl status`).
final class SystemdStatus: DaemonStatusObserver, Sendable {
    let notifier: SystemdNotifier

    init(notifier: SystemdNotifier) {
        self.notifier = notifier
    }

    func statusChanged(devices: Int, clients: Int) {
        notifier.notify("STATUS=\(devices) devices, \(clients) clients")
    }
}
