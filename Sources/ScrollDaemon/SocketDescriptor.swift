import NIOCore
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A connection's socket as the fan-out writes to it: a duplicate of the descriptor NIO reads
/// from, so a published state costs one `send(2)` per subscriber instead of NIO's channel
/// write path (~4 400 instructions per write, docs/performance-live.md finding 3).
///
/// NIO's `Channel` does not give out its descriptor: `descriptor(of:)` reads it and checks it
/// against the kernel, and the fan-out writes to a duplicate, which stays the same socket for as
/// long as this object holds it, so a write can never reach another file that reused the number
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
        close()
    }

    /// A duplicate of `channel`'s socket, or nil: not a socket channel (an embedded one in
    /// tests), or no descriptor to spare (then NIO's write path does it all, as it can).
    package static func duplicate(of channel: Channel) -> SocketDescriptor? {
        guard isEnabled, let fd = descriptor(of: channel) else { return nil }
        let copy = fcntl(fd, F_DUPFD_CLOEXEC, 0)
        return copy >= 0 ? SocketDescriptor(adopting: copy) : nil
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

    /// The descriptor NIO holds for `channel`'s socket, or nil. Called on the channel's loop.
    ///
    /// NIO keeps it as its socket channels' `socket.descriptor`, which reflection reads; the
    /// number is used only if its socket is the channel's: the same `SO_COOKIE` as NIO reports
    /// through `SocketOptionProvider`. A change in NIO's layout can so only make this nil (the
    /// connection is then served through NIO alone), never another descriptor. One lookup per
    /// connection; nothing scans the process' descriptors.
    package static func descriptor(of channel: Channel) -> Int32? {
        #if os(Linux)
        channel.eventLoop.assertInEventLoop()
        guard let provider = channel as? SocketOptionProvider,
              let socket = member("socket", of: channel),
              let fd = member("descriptor", of: socket) as? Int32, fd >= 0
        else { return nil }
        var cookie: UInt64?
        // On the channel's loop NIO answers at once.
        let asked: EventLoopFuture<UInt64> = provider.unsafeGetSocketOption(
            level: NIOBSDSocket.OptionLevel(rawValue: SOL_SOCKET),
            name: NIOBSDSocket.Option(rawValue: socketCookie)
        )
        asked.assumeIsolated().whenSuccess { cookie = $0 }
        var direct: UInt64 = 0
        var size = socklen_t(MemoryLayout<UInt64>.size)
        guard let cookie, getsockopt(fd, SOL_SOCKET, socketCookie, &direct, &size) == 0, direct == cookie else { return nil }
        return fd
        #else
        return nil
        #endif
    }

    /// Where a member sits in a type's reflection: how many superclasses up, and which child.
    private struct MemberPath: Sendable {
        var depth: Int
        var offset: Int
    }

    /// The paths found so far, by type and label. Reflection materializes every child it
    /// passes; searching by label did so for each connection, ~10 % of the loop with a hundred
    /// clients reconnecting in a loop (docs/performance-live.md, finding 8). With the path
    /// known, only the one child is read.
    private static let paths = Mutex<[MemberKey: MemberPath]>([:])

    private struct MemberKey: Hashable, Sendable {
        var type: ObjectIdentifier
        var label: String
    }

    /// `label`'s value in `value` or the classes it inherits from.
    private static func member(_ label: String, of value: Any) -> Any? {
        let key = MemberKey(type: ObjectIdentifier(type(of: value)), label: label)
        if let path = paths.withLock({ $0[key] }) {
            var mirror = Mirror(reflecting: value)
            for _ in 0..<path.depth {
                guard let superclass = mirror.superclassMirror else { return nil }
                mirror = superclass
            }
            let children = mirror.children
            guard path.offset < children.count else { return nil }
            let child = children[children.index(children.startIndex, offsetBy: path.offset)]
            return child.label == label ? child.value : nil
        }
        var mirror: Mirror? = Mirror(reflecting: value)
        var depth = 0
        while let current = mirror {
            for (offset, child) in current.children.enumerated() where child.label == label {
                paths.withLock { $0[key] = MemberPath(depth: depth, offset: offset) }
                return child.value
            }
            mirror = current.superclassMirror
            depth += 1
        }
        return nil
    }
}
