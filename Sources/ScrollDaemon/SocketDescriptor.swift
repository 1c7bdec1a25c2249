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

    package init(adopting fd: Int32) {
        self.fd = fd
    }

    deinit {
        if fd >= 0 { Glibc.close(fd) }
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
        guard let cookie, let fd = find(cookie: cookie) else { return nil }
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        return copy >= 0 ? SocketDescriptor(adopting: copy) : nil
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
        Glibc.close(fd)
        fd = -1
    }

    // MARK: Finding the descriptor

    /// `SO_COOKIE` (asm-generic/socket.h; Glibc's module does not carry it): a number the
    /// kernel gives each socket, unique for the system's uptime.
    static let socketCookie: Int32 = 57

    /// Where the last search succeeded, plus one: connections usually arrive one after another
    /// and get consecutive descriptors, so the next search usually hits at once.
    private static let nextGuess = Atomic<Int32>(0)

    /// The descriptor of this process whose socket has `cookie`. A new connection's descriptor
    /// is the lowest one free when it was accepted, so after the guess the search goes up from
    /// 0 and stops at the first match (bounded by the descriptor limit).
    package static func find(cookie: UInt64) -> Int32? {
        let guess = nextGuess.load(ordering: .relaxed)
        if guess > 2, Self.cookie(of: guess) == cookie {
            nextGuess.store(guess + 1, ordering: .relaxed)
            return guess
        }
        var limit = rlimit()
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        let bound = getrlimit(resource, &limit) == 0 ? Int32(clamping: limit.rlim_cur) : 1024
        for fd in Int32(0)..<min(bound, 1 << 20) where Self.cookie(of: fd) == cookie {
            nextGuess.store(fd + 1, ordering: .relaxed)
            return fd
        }
        return nil
    }

    private static func cookie(of fd: Int32) -> UInt64? {
        var value: UInt64 = 0
        var size = socklen_t(MemoryLayout<UInt64>.size)
        guard getsockopt(fd, SOL_SOCKET, socketCookie, &value, &size) == 0 else { return nil }
        return value
    }
}
