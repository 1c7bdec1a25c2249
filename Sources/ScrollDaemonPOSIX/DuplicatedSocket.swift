import NIOCore
import ScrollDaemon
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// The fan-out's socket for one connection (`ClientSocket`): a duplicate of the descriptor NIO
/// reads from, so a published state costs one `send(2)` per subscriber instead of NIO's channel
/// write path (docs/performance-live.md finding 3).
///
/// NIO lends a channel's descriptor only for the length of a call
/// (`withUnsafeTransportIfAvailable`); the duplicate made inside it stays the same socket for
/// as long as this object holds it, so a write can never reach another file that reused the
/// number after NIO closed its own (the input thread opens devices at any time).
///
/// Only the loop that owns the connection uses it (`Client.write`), which is also what keeps
/// `fd` free of exclusivity checks.
package final class DuplicatedSocket: ClientSocket {
    /// -1 once closed.
    @exclusivity(unchecked) package private(set) var fd: Int32

    package init(adopting fd: Int32) {
        self.fd = fd
    }

    deinit {
        close()
    }

    /// A duplicate of `channel`'s socket, or nil: not a socket channel (an embedded one in
    /// tests), no descriptor to spare, or direct writes turned off (then NIO's write path does
    /// it all, as it can). Called on the channel's loop.
    package static func duplicate(of channel: Channel) -> DuplicatedSocket? {
        guard isEnabled else { return nil }
        let copy = try? channel.pipeline.syncOperations.withUnsafeTransportIfAvailable(of: NIOBSDSocket.Handle.self) {
            fcntl($0, F_DUPFD_CLOEXEC, 0)
        }
        guard let copy, copy >= 0 else { return nil }
        return DuplicatedSocket(adopting: copy)
    }

    /// False when the environment has `SCROLLD_NIO_WRITES=1`: every write then goes through
    /// NIO's channel, as before the direct path existed — for measuring one against the other
    /// with the same binary (Benchmarks/scripts/scroll-cpu.sh), and a way around the direct path
    /// should a system ever need one.
    static let isEnabled = getenv("SCROLLD_NIO_WRITES").map { String(cString: $0) != "1" } ?? true

    package func send(_ buffer: ByteBuffer) -> ClientSocketOutcome {
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
        // Once: a failed close(2) on Linux has released the number all the same.
        try? FileDescriptor(rawValue: fd).close()
        fd = -1
    }
}
