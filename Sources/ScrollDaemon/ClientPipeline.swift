import NIOCore
import NIOHTTP1
import NIOWebSocket

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
        try setOptions(of: channel)
        // A client that shuts down its sending side (`socat` at the end of its input) still gets
        // the replies to what it sent: the end of its input is an event (``ClientHandler``), not
        // a close that would drop the replies NIO has not written yet.
        try channel.syncOptions?.setOption(.allowRemoteHalfClosure, value: true)
        try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder()))
        try channel.pipeline.syncOperations.addHandler(ClientHandler(core: core, edge: edge, restoring: restoring))
    }

    /// A connection to the WebSocket listener (docs/design.md §24): an HTTP handshake
    /// (``WebHandshake``), then NIO's WebSocket framing and ``WebSocketLines`` in place of the
    /// line decoder, in front of the same ``ClientHandler`` as any other connection, added when
    /// the handshake is done (it then checks the peer's uid, and greets).
    package static func configureWeb(_ channel: Channel, core: DaemonCore, edge: ConnectionEdge) throws {
        try setOptions(of: channel)
        guard core.connections.handshaking < WebHandshake.maximumHandshaking else {
            try channel.pipeline.syncOperations.addHandler(WebHandshake.Overload(core: core))
            return
        }
        let handshake = WebHandshake(core: core)
        let bound = NIOLoopBound(core, eventLoop: channel.eventLoop)
        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: LineFrameDecoder.defaultMaximumLength,
            automaticErrorHandling: false,
            shouldUpgrade: { channel, head in
                let refused = WebHandshake.refusal(of: head, origins: bound.value.session.configuration.web.origins)
                return channel.eventLoop.makeSucceededFuture(refused == nil ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, _ in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    pipeline.removeHandler(name: WebHandshake.name, promise: nil)
                    pipeline.removeHandler(name: WebHandshake.HeadLimit.name, promise: nil)
                    // The length of each frame is checked before NIO's decoder reads it
                    // (after the upgrade handler, which passes on the bytes that came with the
                    // handshake), and each frame against RFC 6455 after it, while it still has
                    // its mask and reserved bits. Fragments are put together up to the line
                    // limit (a longer message is a line too long), at most
                    // `WebSocketLines.maximumFragments` of them to a message.
                    let decoder = try pipeline.handler(type: ByteToMessageHandler<WebSocketFrameDecoder>.self)
                    try pipeline.addHandler(WebSocketLengthCheck(), position: .before(decoder))
                    try pipeline.addHandler(WebSocketFrameChecks())
                    try pipeline.addHandler(
                        NIOWebSocketFrameAggregator(
                            // Empty fragments are RFC 6455's too; the count bounds them.
                            minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: WebSocketLines.maximumFragments,
                            maxAccumulatedFrameSize: LineFrameDecoder.defaultMaximumLength
                        )
                    )
                    try pipeline.addHandler(WebSocketLines())
                    try pipeline.addHandler(ClientHandler(core: bound.value, edge: edge))
                }
            }
        )
        try channel.pipeline.syncOperations.configureHTTPServerPipeline(
            withServerUpgrade: (upgraders: [upgrader], completionHandler: { _ in })
        )
        try channel.pipeline.syncOperations.addHandler(handshake, name: WebHandshake.name)
        try channel.pipeline.syncOperations.addHandler(WebHandshake.HeadLimit(), name: WebHandshake.HeadLimit.name, position: .first)
    }

    private static func setOptions(of channel: Channel) throws {
        guard let options = channel.syncOptions else { return }
        try options.setOption(.maxMessagesPerRead, value: 1)
        try options.setOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: bytesPerTurn))
        try options.setOption(.writeBufferWaterMark, value: Client.writeBufferWaterMark)
    }
}
