import NIOCore

/// The pipeline of one client connection, built here alone: for the daemon's own socket,
/// systemd's, a connection taken back after a restart, and the tests' embedded and socket
/// daemons, so that what the tests exercise is what runs.
package enum ClientPipeline {
    /// Bytes read from one connection per turn of the event loop, in one read: every other
    /// connection is served between two such reads, so a client that pipelines thousands of
    /// requests delays nobody else by more than what 4 KiB of requests costs (docs/design.md,
    /// "Limits"). A 64 KiB line takes 16 turns to arrive, which no client notices.
    package static let bytesPerTurn = 4096

    /// Sets the connection's options and adds the line decoder and the request handler.
    /// `edge`: what the operating system tells of the connection (``ConnectionEdge``).
    /// `restoring`: the number of a connection taken back after a restart.
    package static func configure(
        _ channel: Channel,
        core: DaemonCore,
        edge: ConnectionEdge,
        restoring: Int? = nil
    ) throws {
        if let options = channel.syncOptions {
            try options.setOption(.maxMessagesPerRead, value: 1)
            try options.setOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: bytesPerTurn))
            try options.setOption(.writeBufferWaterMark, value: Client.writeBufferWaterMark)
        }
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder()))
        try channel.pipeline.syncOperations.addHandler(ClientHandler(core: core, edge: edge, restoring: restoring))
    }
}
