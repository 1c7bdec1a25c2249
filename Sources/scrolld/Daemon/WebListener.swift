import Logging
import NIOCore
import NIOPosix
#if canImport(Glibc)
import Glibc
#endif
import ScrollConfig
import ScrollDaemon
import ScrollDaemonPOSIX

/// The WebSocket listener of `[web] listen` (docs/design.md §24): a TCP socket on a loopback
/// address whose connections go through the daemon's one pipeline (`ClientPipeline`), the
/// WebSocket way, each checked for its peer's uid (`ConnectionEdge.loopback`).
enum WebListener {
    /// Binds `address` and serves it until the returned channel is closed. Refuses an address
    /// that is not a loopback one, whatever the configuration let through.
    static func start(
        at address: WebSettings.ListenAddress, group: EventLoopGroup, core: NIOLoopBound<DaemonCore>
    ) throws -> Channel {
        let socketAddress: SocketAddress
        do {
            socketAddress = try SocketAddress(ipAddress: address.host, port: address.port)
        } catch {
            throw WebListenerError(message: "web.listen: \(address) is not an IP address")
        }
        guard isLoopback(socketAddress) else {
            throw WebListenerError(message: "web.listen: \(address) is not a loopback address; the listener serves this machine only")
        }
        let bootstrap = ServerBootstrap.listening(group: group) { channel in
            try ClientPipeline.configureWeb(channel, core: core.value, edge: .loopback)
        }
        .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
        do {
            return try bootstrap.bind(to: socketAddress).wait()
        } catch let error as IOError {
            throw WebListenerError(message: "web.listen: cannot listen on \(address): \(Self.reason(error.errnoCode))")
        } catch {
            throw WebListenerError(message: "web.listen: cannot listen on \(address): \(error)")
        }
    }

    /// The system's reason, and for a port in use what to do (NIO's own description names its
    /// internal function).
    static func reason(_ code: CInt) -> String {
        let reason = String(cString: strerror(code))
        switch code {
        case EADDRINUSE: return "\(reason): another scrolld, or another program, listens there; stop it, or choose another port"
        case EACCES: return "\(reason): ports below 1024 need privileges; choose a port from 1024 on"
        default: return reason
        }
    }

    static func isLoopback(_ address: SocketAddress) -> Bool {
        switch address {
        case .v4(let v4): return UInt32(bigEndian: v4.address.sin_addr.s_addr) >> 24 == 127
        case .v6: return address.ipAddress == "::1"
        default: return false
        }
    }
}

struct WebListenerError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
