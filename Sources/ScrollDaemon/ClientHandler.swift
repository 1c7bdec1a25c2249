import NIOCore
import ScrollProtocol

/// The pipeline end of one client connection: checks who is connecting, greets, turns each
/// line into a request for the core, and reports framing errors before closing.
package final class ClientHandler: ChannelInboundHandler {
    package typealias InboundIn = ByteBuffer
    package typealias OutboundOut = ByteBuffer

    let core: DaemonCore
    var client: Client?
    /// What the operating system tells of the connection (who connects, the socket for direct
    /// writes) and the daemon's own uid: the POSIX edge's, or a test's stand-in.
    let edge: ConnectionEdge
    /// The number of a connection taken back after a restart (docs/design.md §16): it keeps its
    /// number and its subscriptions, and is not greeted again.
    let restoring: Int?
    /// Counted among the daemon's open connections (until it closes).
    private var counted = false
    /// Started: counted, and its credentials asked for (``start(_:)`` runs once).
    private var started = false
    /// Set while the connection lingers before its close (`linger(_:saying:)`): the close that
    /// is due once the client has been silent for ``lingerTime``, and the one due at the
    /// latest, ``lingerLimit`` after the linger began, however the client keeps sending.
    private var lingerClose: Scheduled<Void>?
    private var lingerEnd: Scheduled<Void>?
    /// How long a lingering connection may stay silent before it is closed.
    static let lingerTime = TimeAmount.seconds(5)
    /// How long a connection may linger at all.
    static let lingerLimit = TimeAmount.seconds(30)
    /// How many connections may linger at once; past it a refusal closes at once.
    package static let maximumLingering = 64
    /// Set while a request is answered later (a reload): the lines after it wait here, in
    /// order, and the socket is not read, so they are at most what one read had brought.
    private var held: CircularBuffer<ByteBuffer>?
    /// The client shut down its sending side: once every request it sent is answered and the
    /// replies are written, the connection closes.
    private var inputEnded = false

    init(core: DaemonCore, edge: ConnectionEdge, restoring: Int? = nil) {
        self.core = core
        self.edge = edge
        self.restoring = restoring
    }

    package func channelActive(context: ChannelHandlerContext) {
        start(context)
        context.fireChannelActive()
    }

    /// Added to a connection that is already open (a WebSocket's, once its handshake is done):
    /// it starts here, as a new connection does when it becomes active.
    package func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { start(context) }
    }

    /// Counts the connection, checks who is connecting, then greets (once per connection).
    private func start(_ context: ChannelHandlerContext) {
        guard !started else { return }
        started = true
        let channel = context.channel
        let core = self.core
        core.connections.open += 1
        counted = true
        // Past the limit a new connection is told so and closed; one taken back after a
        // restart was already counted by the process before.
        if restoring == nil, core.connections.open > core.connections.limit {
            refuse(context, ProtocolError(.tooLarge, "too many connections: the daemon serves at most \(core.connections.limit) at once"), closing: .tooManyConnections)
            return
        }
        // SO_PEERCRED: the kernel's word for the connecting process' uid.
        let handler = NIOLoopBound(self, eventLoop: channel.eventLoop)
        let bound = NIOLoopBound(context, eventLoop: channel.eventLoop)
        let edge = self.edge
        edge.identify(channel).assumeIsolated().whenComplete { result in
            guard channel.isActive else { return }
            let credentials: PeerCredentials
            switch result {
            case .success(let value): credentials = value
            case .failure:
                handler.value.refuse(bound.value, ProtocolError(.forbidden, "cannot read the peer's credentials"), closing: .forbidden)
                return
            }
            let uid = credentials.uid
            guard core.requests.isAllowed(uid: uid, daemonUID: edge.daemonUID) else {
                handler.value.refuse(bound.value, ProtocolError(.forbidden, "uid \(uid) may not connect (the daemon runs as uid \(edge.daemonUID); see daemon.allow_uids)"), closing: .forbidden)
                return
            }
            let number = self.restoring ?? core.connections.nextNumber
            if self.restoring == nil { core.connections.nextNumber += 1 }
            let client = Client(
                context: context, credentials: credentials, socket: edge.openSocket(channel),
                number: number, stuckLimit: core.connections.stuckClientLimit, logger: core.logger
            )
            self.client = client
            core.connected(client)
            if self.restoring != nil {
                core.store?.resume(client)
            } else {
                client.reply(core.requests.welcome())
            }
        }
    }

    package func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        guard let client else { return }  // nothing is read before the credentials check
        guard held == nil else {
            held!.append(line)
            return
        }
        handle(line, from: client, context: context)
    }

    /// Hands `line` to the core; an answer that comes later holds the lines after it.
    private func handle(_ line: ByteBuffer, from client: Client, context: ChannelHandlerContext) {
        guard let answered = core.requests.handle(line, from: client) else { return }
        held = held ?? CircularBuffer()
        setReading(context.channel)
        let handler = NIOLoopBound(self, eventLoop: context.eventLoop)
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        answered.whenComplete { _ in handler.value.answered(bound.value) }
    }

    /// A request answered later has been: the lines held meanwhile are handled in order, until
    /// one is answered later again.
    private func answered(_ context: ChannelHandlerContext) {
        guard var lines = held else { return }
        held = nil
        // Until the connection goes (a lingering one reads again, to discard).
        while let client, let line = lines.popFirst() {
            if held != nil { held!.append(line) } else { handle(line, from: client, context: context) }
        }
        setReading(context.channel)
        closeOnceAnswered(context)
    }

    /// The end of the client's input (`shutdown(SHUT_WR)`): the lines before it have been read
    /// (the decoder passes the event on after them). A lingering connection has nothing more
    /// to say and closes now.
    package func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard case .some(.inputClosed) = event as? ChannelEvent else {
            return context.fireUserInboundEventTriggered(event)
        }
        inputEnded = true
        if lingerEnd != nil { return context.close(promise: nil) }
        closeOnceAnswered(context)
    }

    /// With the client's input ended and no request waiting for its answer, closes after the
    /// replies NIO still holds are written (writes complete in order: an empty one after them
    /// completes last). A subscription ends with the connection.
    private func closeOnceAnswered(_ context: ChannelHandlerContext) {
        guard inputEnded, held == nil, lingerEnd == nil else { return }
        let channel = context.channel
        channel.writeAndFlush(channel.allocator.buffer(capacity: 0)).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Reads while the client's socket can take replies and no request waits for its answer.
    private func setReading(_ channel: Channel) {
        try? channel.syncOptions?.setOption(ChannelOptions.autoRead, value: channel.isWritable && held == nil)
    }

    /// Backpressure: while the client's socket is full, its requests are not read either, so a
    /// client that sends without reading its replies costs at most the write buffer's high
    /// watermark plus one read's worth of replies, never a queue that grows with what it sends.
    package func channelWritabilityChanged(context: ChannelHandlerContext) {
        client?.writabilityChanged()
        // Reading resumes (NIO reads at once) when it drains.
        setReading(context.channel)
        context.fireChannelWritabilityChanged()
    }

    /// Refuses the connection with `error`.
    private func refuse(_ context: ChannelHandlerContext, _ error: ProtocolError, closing reason: ConnectionClosing) {
        core.connections.noteRefusal(error.message, logger: core.logger)
        linger(context, saying: error, closing: reason)
    }

    /// A lingering close: say why, half-close (the peer reads the line, then end of file), and
    /// go on reading and discarding what the peer sends until it hangs up or stays silent for
    /// ``lingerTime``. Closing at once with its bytes unread would reset the connection: a
    /// client still writing would fail in its send before it could read why.
    ///
    /// The connection's work ends when the linger begins (its subscriptions, owned containers,
    /// pause and focus, as at a close), a linger lasts ``lingerLimit`` at most, and at most
    /// ``maximumLingering`` connections linger at once: a refused connection can hold neither a
    /// descriptor nor the daemon's attention for long.
    ///
    /// `reason` goes down the pipeline first (``ConnectionClosing``): a transport with a close
    /// handshake of its own (WebSocket) says it with the close; a byte stream ignores it.
    private func linger(_ context: ChannelHandlerContext, saying error: ProtocolError, closing reason: ConnectionClosing) {
        guard lingerEnd == nil else { return }
        let channel = context.channel
        if let client {
            core.disconnected(client)
            self.client = nil
        }
        let reply = core.requests.line { ReplyEncoder.error(error, into: &$0) }
        context.triggerUserOutboundEvent(reason, promise: nil)
        guard core.connections.lingering < Self.maximumLingering else {
            channel.writeAndFlush(reply).whenComplete { _ in channel.close(promise: nil) }
            return
        }
        core.connections.lingering += 1
        lingerClose = channel.eventLoop.scheduleTask(in: Self.lingerTime) { channel.close(promise: nil) }
        lingerEnd = channel.eventLoop.scheduleTask(in: Self.lingerLimit) { channel.close(promise: nil) }
        channel.writeAndFlush(reply).whenComplete { _ in channel.close(mode: .output, promise: nil) }
    }

    /// A lingering connection that is still sending stays until it has been silent a while.
    package func channelReadComplete(context: ChannelHandlerContext) {
        if let pending = lingerClose {
            pending.cancel()
            let channel = context.channel
            lingerClose = channel.eventLoop.scheduleTask(in: Self.lingerTime) { channel.close(promise: nil) }
        }
        context.fireChannelReadComplete()
    }

    package func channelInactive(context: ChannelHandlerContext) {
        if let lingerEnd {
            lingerEnd.cancel()
            lingerClose?.cancel()
            core.connections.lingering -= 1
        }
        lingerClose = nil
        lingerEnd = nil
        if counted {
            core.connections.open -= 1
            counted = false
        }
        if let client { core.disconnected(client) }
        client = nil
        context.fireChannelInactive()
    }

    package func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let tooLong = error as? LineFrameDecoder.LineTooLong {
            linger(context, saying: tooLong.reply, closing: .lineTooLong)
            return
        }
        context.close(promise: nil)
    }
}
