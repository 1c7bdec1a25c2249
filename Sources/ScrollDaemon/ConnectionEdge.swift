import NIOCore

/// A connection's socket as the fan-out writes to it directly (`Client.write`): one `send(2)`
/// per subscriber instead of NIO's channel write path (~4 400 instructions per write,
/// docs/performance-live.md finding 3).
///
/// The library makes no system call of its own: the daemon's POSIX edge implements this
/// (`ScrollDaemonPOSIX.DuplicatedSocket`, a duplicate of the descriptor NIO reads from) and
/// hands it in through ``ConnectionEdge``. Only the loop that owns the connection uses it.
package protocol ClientSocket: AnyObject {
    /// Writes `buffer`'s readable bytes, without blocking and without SIGPIPE.
    func send(_ buffer: ByteBuffer) -> ClientSocketOutcome
    /// Lets the socket go (NIO's own descriptor stays NIO's); later sends are never made.
    func close()
    /// The descriptor written to while open (the same socket as the channel's, for the
    /// restart's file descriptor store, docs/design.md §16), -1 once closed.
    var fd: Int32 { get }
}

/// What the kernel took of one write.
package enum ClientSocketOutcome: Equatable, Sendable {
    /// All of it.
    case complete
    /// This many bytes (fewer than asked): the socket's buffer is full.
    case partial(Int)
    /// Nothing: the buffer was full already (EAGAIN).
    case wouldBlock
    /// An error other than a full buffer (the peer closed: EPIPE, ECONNRESET), as its errno:
    /// NIO's own write reports it and closes the connection.
    case failed(Int32)
}

/// What a connection needs from the operating system, supplied from outside the library: by
/// the daemon's POSIX edge (`ConnectionEdge.posix` in ScrollDaemonPOSIX), or by a test's
/// stand-in on an embedded channel. Given to ``ClientPipeline/configure(_:core:edge:restoring:)``.
package struct ConnectionEdge: Sendable {
    /// The uid the daemon runs as: it may always connect; another uid only when
    /// `daemon.allow_uids` lists it.
    package var daemonUID: UInt32
    /// Who is connecting: the kernel's `SO_PEERCRED` on a real socket.
    package var identify: @Sendable (Channel) -> EventLoopFuture<PeerCredentials>
    /// The connection's socket for direct writes, or nil (then NIO's write path does it all).
    /// Called on the channel's loop, once, when the connection is admitted.
    package var openSocket: @Sendable (Channel) -> (any ClientSocket)?

    package init(
        daemonUID: UInt32,
        identify: @escaping @Sendable (Channel) -> EventLoopFuture<PeerCredentials>,
        openSocket: @escaping @Sendable (Channel) -> (any ClientSocket)? = { _ in nil }
    ) {
        self.daemonUID = daemonUID
        self.identify = identify
        self.openSocket = openSocket
    }
}

/// Who is at the other end of a connection: what `SO_PEERCRED` tells.
package struct PeerCredentials: Sendable {
    package var pid: Int32
    package var uid: UInt32
    package var gid: UInt32

    package init(pid: Int32, uid: UInt32, gid: UInt32) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
    }
}
