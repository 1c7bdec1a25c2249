import NIOCore
import ScrollDaemon
#if canImport(Glibc)
import Glibc
#endif

extension ConnectionEdge {
    /// The operating system's answers for a real socket: the uid this process runs as, the
    /// peer's `SO_PEERCRED`, and a duplicate of NIO's descriptor for the fan-out's direct
    /// writes. What `scrolld run` gives every connection: accepted, socket-activated or taken
    /// back after a restart.
    package static let posix = ConnectionEdge(
        daemonUID: getuid(),
        identify: PeerCredentials.of,
        openSocket: { DuplicatedSocket.duplicate(of: $0) }
    )
}
