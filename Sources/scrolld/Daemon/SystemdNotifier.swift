#if canImport(Glibc)
import ScrollProtocol
import Glibc
#endif

/// `sd_notify(3)` without libsystemd: one datagram to `$NOTIFY_SOCKET` per message. Without
/// the variable (not started by systemd) every call is a no-op.
struct SystemdNotifier: Sendable {
    let path: String?

    init(environment: [String: String]) {
        path = environment["NOTIFY_SOCKET"].flatMap { $0.isEmpty ? nil : $0 }
    }

    var isEnabled: Bool { path != nil }

    /// Sends `state` (e.g. "READY=1\nSTATUS=…"); failures are ignored as sd_notify's are.
    func notify(_ state: String) {
        guard let path else { return }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return }
        defer { close(fd) }
        // An abstract socket is written with a leading '@'.
        guard let address = UnixSocketAddress(path: path) else { return }
        _ = state.utf8CString.withUnsafeBufferPointer { message in
            address.withSockAddr { sendto(fd, message.baseAddress, message.count - 1, Int32(MSG_NOSIGNAL), $0, $1) }
        }
    }

    /// The watchdog interval systemd asked for, if it asked for one for this process.
    static func watchdogInterval(environment: [String: String]) -> Int64? {
        guard let usec = environment["WATCHDOG_USEC"].flatMap({ Int64($0) }), usec > 0 else { return nil }
        if let pid = environment["WATCHDOG_PID"].flatMap({ Int32($0) }), pid != getpid() { return nil }
        return usec
    }
}
