import CScrolldShim
import CSystemd
import Logging
import NIOCore
import ScrollDaemon
#if canImport(Glibc)
import Glibc
#endif

/// systemd's file descriptor store (`FDSTORE=1`, `sd_pid_notify_with_fds(3)`, docs/design.md §16):
/// the client connections and the session's memfd live there, so a daemon that dies (a crash,
/// `SIGKILL`, the watchdog) and is restarted takes them back from `$LISTEN_FDNAMES` and carries
/// on. The names: `session` (the memfd), `client-N` (connection number N).
///
/// Unchecked `Sendable`: made at start-up, then used only on the event loop.
final class FileDescriptorStore: ConnectionKeeper, @unchecked Sendable {
    /// What a previous process of this service left in the store.
    struct TakenBack {
        var session: Int32?
        var clients: [(fd: Int32, number: Int)] = []
        /// `client-…` descriptors whose names give no number: closed and forgotten at start.
        var unnumbered: [(fd: Int32, name: String)] = []
    }

    static let sessionName = "session"
    static let clientPrefix = "client-"

    let logger: Logger
    /// Whether the connections that failed to be stored were logged already (once is enough).
    private var warned = false
    /// Whether the notify socket refused a message: no one keeps anything any more.
    private var refused = false

    init(logger: Logger) {
        self.logger = logger
    }

    /// Whether the service manager keeps descriptors for this process: it runs under systemd
    /// (`$NOTIFY_SOCKET`), and `$FDSTORE` (systemd ≥ 254 sets it to `FileDescriptorStoreMax=`)
    /// is not 0. Without systemd nothing is kept, as before.
    static func isAvailable(environment: [String: String]) -> Bool {
        guard !(environment["NOTIFY_SOCKET"] ?? "").isEmpty else { return false }
        return environment["FDSTORE"] != "0"
    }

    /// Whether a descriptor systemd passed is one of the store's, not a socket unit's.
    static func isStored(name: String) -> Bool {
        name == sessionName || name.hasPrefix(clientPrefix)
    }

    /// The store's descriptors among those passed at start (`sd_listen_fds_with_names`).
    static func takeBack() -> TakenBack {
        var result = TakenBack()
        for (fd, name) in SocketActivation.passedDescriptors() {
            if name == sessionName {
                if let earlier = result.session { close(earlier) }
                result.session = fd
            } else if name.hasPrefix(clientPrefix) {
                if let number = Int(name.dropFirst(clientPrefix.count)) {
                    result.clients.append((fd, number))
                } else {
                    result.unnumbered.append((fd, name))
                }
            }
        }
        return result
    }

    /// Stores `fd` under `name`; false (and why, logged) when systemd refused it.
    @discardableResult
    func store(_ fd: Int32, name: String) -> Bool {
        var descriptor = fd
        let result = sd_pid_notify_with_fds(0, 0, "FDSTORE=1\nFDNAME=\(name)", &descriptor, 1)
        // Nothing listens on the notify socket any more (a test's stand-in that closed it):
        // connections are not offered again, three system calls each for nothing.
        if result == -ECONNREFUSED || result == -ENOENT { refused = true }
        guard result > 0 else {
            if !warned {
                warned = true
                logger.warning("cannot keep \(name) in systemd's file descriptor store (\(result < 0 ? String(cString: strerror(-result)) : "no notification socket")): a restart will lose it")
            }
            return false
        }
        return true
    }

    // MARK: ConnectionKeeper

    /// Stores the connection's socket (called on its loop, by the core): the fan-out's
    /// duplicate when there is one, else the descriptor NIO lends for the call (systemd takes
    /// its own copy while it lasts).
    func keep(_ channel: Channel, descriptor: Int32?, number: Int) {
        guard !refused else { return }
        let name = "\(Self.clientPrefix)\(number)"
        if let descriptor, descriptor >= 0 {
            store(descriptor, name: name)
            return
        }
        let lent = try? channel.pipeline.syncOperations.withUnsafeTransportIfAvailable(of: NIOBSDSocket.Handle.self) {
            store($0, name: name)
        }
        if lent == nil, !warned {
            warned = true
            logger.warning("cannot find the descriptor of connection \(number): it is not kept for a restart")
        }
    }

    func forget(number: Int) {
        forget(name: "\(Self.clientPrefix)\(number)")
    }

    /// Closes the stored descriptors called `name` (`FDSTOREREMOVE=1`).
    func forget(name: String) {
        guard !refused else { return }
        _ = sd_notify(0, "FDSTOREREMOVE=1\nFDNAME=\(name)")
    }
}
