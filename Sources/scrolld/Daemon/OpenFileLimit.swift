import ScrollDaemon
#if canImport(Glibc)
import Glibc
#endif

/// The daemon holds one descriptor per client. Distributions start services with a soft
/// RLIMIT_NOFILE of 1024 and a far higher hard limit, which a process may raise its soft limit
/// to without privileges (systemd's own advice for daemons that need many descriptors; NIO
/// uses epoll, so descriptors above 1024 are fine).
enum OpenFileLimit {
    enum Outcome: Equatable {
        case unchanged
        case raised(from: UInt64, to: UInt64)
        case failed(String)
    }

    static func raiseToHardLimit() -> Outcome {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        guard getrlimit(resource, &limit) == 0 else { return .failed(String(cString: strerror(errno))) }
        guard limit.rlim_cur < limit.rlim_max else { return .unchanged }
        let from = UInt64(limit.rlim_cur)
        limit.rlim_cur = limit.rlim_max
        guard setrlimit(resource, &limit) == 0 else { return .failed(String(cString: strerror(errno))) }
        return .raised(from: from, to: UInt64(limit.rlim_max))
    }

    /// Descriptors kept for everything but clients: devices, the listening sockets, inotify,
    /// the session store, a recording (64); connections that linger after a refusal; WebSocket
    /// handshakes under way. Each of those is bounded, so with the clients at their limit the
    /// process never runs out: out of descriptors, NIO's listener retried `accept` in a loop
    /// that kept a core busy.
    static let reserved = 64 + ClientHandler.maximumLingering + WebHandshake.maximumHandshaking

    /// Kept on top of ``reserved`` while systemd's file descriptor store is on: a store that
    /// waits for a slow manager holds a duplicate of its connection's descriptor (at most
    /// ``NotificationSender/storeLimit``), and the sender its socket and its wake-up pipe.
    static let reservedForTheStore = NotificationSender.storeLimit + 3

    /// How many clients the daemon serves at once: `DaemonCore`'s default, fewer when the
    /// descriptors the process may open would run out first. Each client holds two (NIO's and
    /// the fan-out's duplicate); refusing one past the limit costs one, for a moment.
    static func connectionLimit(keepingStores: Bool) -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return Connections.defaultLimit }
        let kept = reserved + (keepingStores ? reservedForTheStore : 0)
        let available = Int(min(UInt64(limit.rlim_cur), UInt64(Int32.max))) - kept
        return max(1, min(Connections.defaultLimit, available / 2))
    }
}
