import CScrolldShim
import NIOCore
import ScrollDaemon
#if canImport(Glibc)
import Glibc
#endif

extension PeerCredentials {
    /// The owner of the other end of a loopback TCP connection: TCP has no SO_PEERCRED, but
    /// both ends are sockets of this host, so the kernel's socket table (NETLINK_SOCK_DIAG,
    /// inet_diag, as `ss -e` reads it) knows the uid that made the peer's socket. No pid: the
    /// table does not say which process holds it (reported as 0).
    @Sendable package static func ofLoopbackPeer(_ channel: Channel) -> EventLoopFuture<PeerCredentials> {
        channel.eventLoop.makeCompletedFuture {
            guard let local = channel.localAddress, let remote = channel.remoteAddress else {
                throw ChannelError.operationUnsupported
            }
            return try lookUp(peer: remote, local: local)
        }
    }

    /// The inet_diag lookup for the socket at `peer` connected to `local`.
    package static func lookUp(peer: SocketAddress, local: SocketAddress) throws -> PeerCredentials {
        guard let (family, peerBytes, peerPort) = parts(of: peer), let (localFamily, localBytes, localPort) = parts(of: local),
            family == localFamily
        else { throw LoopbackPeerError(errno: EAFNOSUPPORT) }
        var uid: UInt32 = 0
        let result = peerBytes.withUnsafeBufferPointer { peerAddress in
            localBytes.withUnsafeBufferPointer { localAddress in
                CScrolldLoopbackPeerUID(family, peerAddress.baseAddress, peerPort, localAddress.baseAddress, localPort, &uid)
            }
        }
        guard result == 0 else { throw LoopbackPeerError(errno: -result) }
        return PeerCredentials(pid: 0, uid: uid, gid: 0)
    }

    /// The family (4 or 6), the address' bytes in network order and the port of an IP address.
    private static func parts(of address: SocketAddress) -> (Int32, [UInt8], UInt16)? {
        switch address {
        case .v4(let v4):
            var raw = v4.address.sin_addr
            let bytes = withUnsafeBytes(of: &raw) { Array($0) }
            return (4, bytes, UInt16(bigEndian: v4.address.sin_port))
        case .v6(let v6):
            var raw = v6.address.sin6_addr
            let bytes = withUnsafeBytes(of: &raw) { Array($0) }
            return (6, bytes, UInt16(bigEndian: v6.address.sin6_port))
        default:
            return nil
        }
    }
}

/// Why the peer of a loopback connection could not be looked up.
package struct LoopbackPeerError: Error, CustomStringConvertible {
    package var errno: Int32
    package var description: String { "inet_diag lookup failed: \(String(cString: strerror(errno)))" }
}

extension ConnectionEdge {
    /// The operating system's answers for a connection to the WebSocket listener
    /// (docs/design.md §24): the uid this process runs as and the loopback peer's uid from the
    /// kernel's socket table. No direct writes: the bytes on the socket are WebSocket frames,
    /// which only the pipeline's frame encoder writes.
    package static let loopback = ConnectionEdge(
        daemonUID: getuid(),
        identify: PeerCredentials.ofLoopbackPeer,
        openSocket: { _ in nil }
    )
}
