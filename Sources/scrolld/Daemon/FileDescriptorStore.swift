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
/// The messages go through the daemon's ``NotificationSender``: queued (each store with a
/// duplicate of its descriptor, made at once) and sent by its thread, so the loop never waits
/// for the service manager; a remove whose store still waits cancels it.
final class FileDescriptorStore: ConnectionKeeper, Sendable {
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
    let sender: NotificationSender

    init(logger: Logger, sender: NotificationSender) {
        self.logger = logger
        self.sender = sender
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

    /// Stores `fd` under `name`: queues a duplicate of it (`fd` need only be valid during the
    /// call). Nothing waits for the manager's answer: a store it refuses is logged (once) by
    /// the sender, and nothing here depends on it. The session's memfd, stored at start before
    /// any connection, is sent first all the same (the queue keeps the order), so a restart
    /// never finds connections in the store without the session they belong to.
    func store(_ fd: Int32, name: String) {
        sender.store(fd, name: name)
    }

    // MARK: ConnectionKeeper

    /// Stores the connection's socket (called on its loop, by the core): the fan-out's
    /// duplicate when there is one, else the descriptor NIO lends for the call; either way the
    /// sender takes its own duplicate at once, which it closes once sent.
    func keep(_ channel: Channel, descriptor: Int32?, number: Int) {
        guard !sender.isRefused else { return }
        let name = "\(Self.clientPrefix)\(number)"
        if let descriptor, descriptor >= 0 {
            store(descriptor, name: name)
            return
        }
        let lent: Void? = try? channel.pipeline.syncOperations.withUnsafeTransportIfAvailable(of: NIOBSDSocket.Handle.self) {
            store($0, name: name)
        }
        if lent == nil {
            sender.warnOnce("cannot find the descriptor of connection \(number): it is not kept for a restart")
        }
    }

    func forget(number: Int) {
        forget(name: "\(Self.clientPrefix)\(number)")
    }

    /// Closes the stored descriptors called `name` (`FDSTOREREMOVE=1`), or takes out the store
    /// of `name` that still waits to be sent.
    func forget(name: String) {
        sender.remove(name)
    }
}
