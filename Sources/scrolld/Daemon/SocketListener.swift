import Logging
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif

/// The socket the daemon binds itself (not one systemd passes), kept at its path while the
/// daemon runs. When the file is removed (a cleaner of /tmp, an `rm`, the whole directory
/// removed) the daemon notices through inotify on the directory and binds a new socket at the
/// same path; connected clients never notice, and new ones can connect again. Without this,
/// the daemon would keep running with nobody able to reach it. Everything here runs on the
/// event loop; nothing polls.
final class SocketListener {
    struct FileIdentity: Equatable {
        var device: UInt64
        var inode: UInt64

        init?(path: String) {
            var info = stat()
            guard lstat(path, &info) == 0 else { return nil }
            device = UInt64(info.st_dev)
            inode = UInt64(info.st_ino)
        }
    }

    let path: String
    let directory: String
    let fileName: String
    let privateDirectory: Bool
    let bootstrap: ServerBootstrap
    let eventLoop: EventLoop
    let logger: Logger
    private var server: Channel?
    /// The socket file this daemon made: the only one it ever rebinds over or removes.
    private var identity: FileIdentity?
    private var watcher: Channel?
    private var inotifyFD: Int32 = -1
    private var pendingCheck: Scheduled<Void>?
    private var stopped = false

    /// Connections the kernel queues before the daemon accepts them.
    static let backlog: Int32 = 256
    static let fileEvents = UInt32(IN_DELETE | IN_MOVED_FROM | IN_CREATE | IN_MOVED_TO)
    static let directoryEvents = UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
    static let watchMask = fileEvents | directoryEvents

    init(path: String, privateDirectory: Bool, bootstrap: ServerBootstrap, eventLoop: EventLoop, logger: Logger) {
        self.path = path
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        directory = parts.dropLast().joined(separator: "/")
        fileName = String(parts.last ?? "")
        self.privateDirectory = privateDirectory
        self.bootstrap = bootstrap
        self.eventLoop = eventLoop
        self.logger = logger
    }

    /// Binds the socket and starts watching its directory. Fails with SocketLocation's errors.
    func start() -> EventLoopFuture<Void> {
        eventLoop.assertInEventLoop()
        return bind().assumeIsolated().flatMap { _ in
            self.watch()
        }.nonisolated()
    }

    private func bind() -> EventLoopFuture<Void> {
        let fd: Int32
        do {
            try SocketLocation.prepare(path, privateDirectory: privateDirectory)
            fd = try SocketLocation.bind(path)
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
        let made = FileIdentity(path: path)
        return bootstrap.withBoundSocket(fd).assumeIsolated().map { channel in
            // NIO listens on an adopted socket with its default backlog (128), not the
            // bootstrap's option: listen(2) again sets ours.
            _ = Glibc.listen(fd, Self.backlog)
            let previous = self.server
            self.server = channel
            self.identity = made
            previous?.close(promise: nil)
        }.nonisolated()
    }

    /// Watches the socket's directory for the socket's removal (or the directory's).
    private func watch() -> EventLoopFuture<Void> {
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else {
            logger.warning("not watching \(path): inotify: \(String(cString: strerror(errno))); if it is removed, SIGHUP binds it again")
            return eventLoop.makeSucceededFuture(())
        }
        inotifyFD = fd
        addWatch()
        let listener = NIOLoopBound(self, eventLoop: eventLoop)
        return NIOPipeBootstrap(group: eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(InotifyHandler { listener.value.changed($0) })
                }
            }
            .takingOwnershipOfDescriptor(input: fd)
            .assumeIsolated()
            .map { self.watcher = $0 }
            .nonisolated()
    }

    /// (Re)adds the directory watch: a directory made again is a new inode and needs its own.
    private func addWatch() {
        guard inotifyFD >= 0 else { return }
        if inotify_add_watch(inotifyFD, directory.isEmpty ? "/" : directory, Self.watchMask) < 0 {
            logger.warning("not watching \(directory): \(String(cString: strerror(errno)))")
        }
    }

    private func changed(_ events: [InotifyEvent]) {
        let directoryGone = Self.directoryEvents | UInt32(IN_IGNORED)
        let relevant = events.contains { event in
            (event.name == fileName && event.mask & Self.fileEvents != 0) || event.mask & directoryGone != 0
        }
        guard relevant, pendingCheck == nil else { return }
        // `rm -r` removes the socket, then the directory: act once that has settled.
        pendingCheck = eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(100)) {
            self.pendingCheck = nil
            self.ensureListening()
        }
    }

    /// Binds a new socket at the path unless this daemon's socket is still there (also run on
    /// SIGHUP, for when inotify could not watch). What another process put there is left alone
    /// (SocketLocation.prepare: only a stale socket is replaced).
    func ensureListening() {
        eventLoop.assertInEventLoop()
        let present = FileIdentity(path: path)
        guard !stopped, let identity, present != identity else { return }
        let reason = present == nil ? "was removed" : "was replaced by another file"
        bind().assumeIsolated().whenComplete { result in
            switch result {
            case .success:
                self.addWatch()
                self.logger.notice("the socket file \(self.path) \(reason); listening there again")
            case .failure(let error):
                self.logger.error("the socket file \(self.path) \(reason) and cannot be bound again: \(error); clients already connected are still served, new ones can connect after SIGHUP or a restart")
            }
        }
    }

    /// Stops listening, and removes the socket file if it is still the one this daemon made.
    func stop() -> EventLoopFuture<Void> {
        eventLoop.assertInEventLoop()
        stopped = true
        pendingCheck?.cancel()
        pendingCheck = nil
        if let identity, FileIdentity(path: path) == identity { unlink(path) }
        let closing = [watcher?.close(), server?.close()].compactMap { $0 }
        return EventLoopFuture.andAllComplete(closing, on: eventLoop)
    }
}

/// Hands each read of an inotify descriptor to a closure, as parsed events.
final class InotifyHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let onEvents: ([InotifyEvent]) -> Void

    init(onEvents: @escaping ([InotifyEvent]) -> Void) {
        self.onEvents = onEvents
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        var buffer = unwrapInboundIn(data)
        onEvents(InotifyEvent.parse(&buffer))
    }
}
