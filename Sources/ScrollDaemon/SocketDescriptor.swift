import NIOCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A connection's socket as the fan-out writes to it: a duplicate of the descriptor NIO reads
/// from, so a published state costs one `send(2)` per subscriber instead of NIO's channel
/// write path (~4 400 instructions per write, docs/performance-live.md finding 3).
///
/// NIO's `Channel` does not give out its descriptor. The connection is found by its socket
/// cookie (`SO_COOKIE`, asked through NIO's `SocketOptionProvider`), compared with the cookies
/// of the process' descriptors, and then duplicated: the copy stays the same socket for as long
/// as this object holds it, so a write can never reach another file that reused the number
/// after NIO closed its own (the input thread opens devices at any time).
///
/// Only the loop that owns the connection uses it (`Client.write`), which is also what keeps
/// `fd` free of exclusivity checks.
package final class SocketDescriptor {
    /// -1 once closed.
    @exclusivity(unchecked) package private(set) var fd: Int32
    /// NIO's descriptor for the same socket (-1 when adopted without one): known to the search
    /// until this closes.
    let original: Int32

    /// What the kernel took of one write.
    package enum Outcome: Equatable {
        /// All of it.
        case complete
        /// This many bytes (fewer than asked): the socket's buffer is full.
        case partial(Int)
        /// Nothing: the buffer was full already (EAGAIN).
        case wouldBlock
        /// An error other than a full buffer (the peer closed: EPIPE, ECONNRESET): NIO's own
        /// write reports it and closes the connection.
        case failed(Int32)
    }

    package init(adopting fd: Int32, original: Int32 = -1) {
        self.fd = fd
        self.original = original
    }

    deinit {
        close()
    }

    /// A duplicate of `channel`'s socket, or nil: not a socket channel (an embedded one in
    /// tests), or no descriptor to spare (then NIO's write path does it all, as it can).
    package static func duplicate(of channel: Channel) -> SocketDescriptor? {
        #if os(Linux)
        guard isEnabled, let provider = channel as? SocketOptionProvider else { return nil }
        var cookie: UInt64?
        // On the channel's loop NIO completes this at once.
        let asked: EventLoopFuture<UInt64> = provider.unsafeGetSocketOption(
            level: NIOBSDSocket.OptionLevel(rawValue: SOL_SOCKET),
            name: NIOBSDSocket.Option(rawValue: Self.socketCookie)
        )
        asked.assumeIsolated().whenSuccess { cookie = $0 }
        return known.withLock { known -> SocketDescriptor? in
            guard let cookie, let fd = find(cookie: cookie, skipping: known) else { return nil }
            let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
            guard copy >= 0 else { return nil }
            known.insert(fd)
            known.insert(copy)
            return SocketDescriptor(adopting: copy, original: fd)
        }
        #else
        return nil
        #endif
    }

    /// False when the environment has `SCROLLD_NIO_WRITES=1`: every write then goes through
    /// NIO's channel, as before the direct path existed — for measuring one against the other
    /// with the same binary (Benchmarks/scripts/scroll-cpu.sh), and a way around the direct path
    /// should a system ever need one.
    static let isEnabled = getenv("SCROLLD_NIO_WRITES").map { String(cString: $0) != "1" } ?? true

    /// Writes `buffer`'s readable bytes, without blocking and without SIGPIPE.
    package func send(_ buffer: ByteBuffer) -> Outcome {
        buffer.withUnsafeReadableBytes { bytes in
            while true {
                let written = Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_DONTWAIT) | Int32(MSG_NOSIGNAL))
                if written == bytes.count { return .complete }
                if written >= 0 { return .partial(written) }
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .wouldBlock
                case let error: return .failed(error)
                }
            }
        }
    }

    package func close() {
        guard fd >= 0 else { return }
        Self.known.withLock { known in
            // NIO has closed (or is closing) the original: its number, and this one's, may be
            // a new connection's next.
            known.remove(fd)
            known.remove(original)
            Glibc.close(fd)
        }
        fd = -1
    }

    // MARK: Finding the descriptor

    /// `SO_COOKIE` (asm-generic/socket.h; Glibc's module does not carry it): a number the
    /// kernel gives each socket, unique for the system's uptime.
    static let socketCookie: Int32 = 57

    /// The descriptors of the connections found so far and their duplicates: a search skips
    /// them without a system call. Without this, a daemon with a thousand clients asked a
    /// thousand descriptors for their cookie at every new connection (a client reconnecting in
    /// a loop kept the loop 95 % busy: the overload test's churn).
    private static let known = Mutex<Set<Int32>>([])

    /// The descriptor of this process whose socket has `cookie`, not one of `skipping`. A new
    /// connection's descriptor is the lowest one free when it was accepted, so the search goes up
    /// from 0 and stops at the first match; descriptors are allocated densely, so after a run of
    /// 256 closed ones (EBADF) nothing further up is open.
    package static func find(cookie: UInt64, skipping: Set<Int32> = []) -> Int32? {
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        let bound = getrlimit(resource, &limit) == 0 ? Int32(clamping: limit.rlim_cur) : 1024
        var closedInARow = 0
        for fd in Int32(0)..<min(bound, 1 << 20) where !skipping.contains(fd) {
            var value: UInt64 = 0
            var size = socklen_t(MemoryLayout<UInt64>.size)
            if getsockopt(fd, SOL_SOCKET, socketCookie, &value, &size) == 0 {
                if value == cookie { return fd }
                closedInARow = 0
            } else if errno == EBADF {
                closedInARow += 1
                if closedInARow == 256 { return nil }
            } else {
                closedInARow = 0
            }
        }
        return nil
    }
}
