import NIOCore
import NIOPosix

extension ServerBootstrap {
    /// The bootstrap of a socket scrolld listens on (its Unix socket, the WebSocket listener):
    /// each accepted connection is set up by `configure`, the daemon's one pipeline.
    ///
    /// Out of descriptors, accept(2) fails at once while the socket stays readable: NIO's
    /// back-off stops accepting for a second instead of spinning on it (a bootstrap given a
    /// bound socket does not add it by itself).
    static func listening(
        group: EventLoopGroup, configure: @escaping @Sendable (Channel) throws -> Void
    ) -> ServerBootstrap {
        ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: SocketListener.backlog)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptBackoffHandler(shouldForwardIOErrorCaught: false))
                }
            }
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture { try configure(channel) }
            }
    }
}
