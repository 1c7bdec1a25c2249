import Logging
import NIOCore
import ScrollProtocol

/// One connected client: its subscriptions and what is waiting to be sent to it.
///
/// Delivery is latest-wins per subscription: while the socket cannot take more (NIO's
/// writability) or the client's `rate` says it is too soon, the subscription waits and then
/// gets its container's latest line (`PublishedContainer.latest`), so a slow reader costs nothing per state
/// and never a queue.
package final class Client {
    package let channel: Channel
    /// The connection's handler context: what NIO writes (see `write`) goes from here straight
    /// to the socket's end of the pipeline, without the channel's generic write path (which
    /// wraps every write anew and walks the pipeline from its tail).
    let context: ChannelHandlerContext
    let credentials: PeerCredentials
    /// The connection's socket for writing it directly (see `write`), from the POSIX edge; nil
    /// on a channel without one (tests' embedded channels) or once a direct write failed.
    private(set) var socket: (any ClientSocket)?
    /// Writes handed to NIO and not yet completed: while any is, everything goes through NIO
    /// behind it, so bytes keep their order.
    @exclusivity(unchecked) private(set) var writesInNIO = 0

    /// Whether the fan-out can write this connection's socket directly (see `write`).
    package var writesDirectly: Bool { socket != nil }
    /// Writes NIO holds for this connection (its writes go direct again once none are left).
    package var writesQueuedInNIO: Int { writesInNIO }
    /// The connection's number in a recording (docs/design.md §17), from 1 in order of connection.
    let number: Int
    var uid: UInt32 { credentials.uid }
    /// One per subscribed container (rarely more than one: searched in order).
    private(set) var subscriptions: [Subscription] = []
    /// The connection's observations by their ids.
    var observers: [RequestID: Observer] = [:]
    /// Its subscriptions and observations waiting for their containers (docs/design.md §20),
    /// at most ``Limits/waiting``.
    var waiters: [Waiter] = []
    /// Its observations, waiting ones included: at most ``Limits/observations``.
    var observationCount: Int { observers.count + waiters.lazy.filter { $0.observationID != nil }.count }
    /// Observation messages of the delivery under way (``queue(_:)``, ``sendOutbox()``).
    private var outbox: [UInt8] = []
    /// The most outbox capacity kept between deliveries, bytes.
    private static let outboxKeptCapacity = 64 * 1024
    /// Set when the socket stops taking data; a client stuck longer than `stuckLimit` is dropped.
    var unwritableSince: NIODeadline?
    private var stuckCheck: Scheduled<Void>?
    let stuckLimit: TimeAmount
    let logger: Logger

    /// How long a client's socket may stay full before it is dropped (`run
    /// --stuck-client-timeout` changes it).
    package static let defaultStuckLimit = TimeAmount.seconds(30)

    /// What NIO may hold of a connection's writes before the channel says it is not writable
    /// (and back below which it says it is again). Only what the kernel refused waits there —
    /// the socket's own buffer already holds some 170 state lines — so a few kilobytes are
    /// enough for replies and the rest of a batch; past them a subscription turns latest-wins.
    /// A larger buffer only queues states that a newer one will replace anyway, and at the
    /// moment a few hundred clients that stopped reading fill up together, queueing them is
    /// what delays everyone else (docs/performance-live.md, finding 8).
    package static let writeBufferWaterMark = ChannelOptions.Types.WriteBufferWaterMark(low: 2 * 1024, high: 8 * 1024)

    init(
        context: ChannelHandlerContext, credentials: PeerCredentials, socket: (any ClientSocket)?,
        number: Int, stuckLimit: TimeAmount = Client.defaultStuckLimit, logger: Logger
    ) {
        channel = context.channel
        self.number = number
        self.context = context
        self.socket = socket
        self.credentials = credentials
        self.stuckLimit = stuckLimit
        self.logger = logger
    }

    var id: ObjectIdentifier { ObjectIdentifier(self) }

    /// Appends observation messages to the outbox; true when it was empty, so the one who
    /// queued sends it once all of a delivery's messages are in (``sendOutbox()``).
    func queue(_ encode: (inout [UInt8]) -> Void) -> Bool {
        let first = outbox.isEmpty
        encode(&outbox)
        return first
    }

    /// Writes the outbox's messages in one write: a delivery of many observations to one
    /// connection costs one `send(2)`, as a batch of states does.
    func sendOutbox() {
        guard !outbox.isEmpty else { return }
        let bytes = ByteBuffer(bytes: outbox)
        // A large catch-up's buffer is not kept for the rest of the connection's life.
        if outbox.capacity > Self.outboxKeptCapacity {
            outbox = []
        } else {
            outbox.removeAll(keepingCapacity: true)
        }
        reply(bytes)
    }

    /// Sends a reply line at once (replies are never coalesced).
    func reply(_ bytes: ByteBuffer) {
        write(bytes, wrapped: NIOAny(bytes))
    }

    /// Writes `bytes` (`wrapped`: the same, wrapped for NIO once for every subscriber of a
    /// batch) to the socket in order with everything written before.
    ///
    /// When NIO holds nothing of this connection's, the bytes go straight to the socket in one
    /// `send(2)`: that is every write of a client that keeps reading. What the kernel does not
    /// take (a full socket buffer), or a write that fails, goes to NIO's channel instead, which
    /// writes it when the socket drains, turns a full queue into writability (the slow-client
    /// rules) and a failure into closing the connection; until NIO has written it all, later
    /// writes queue behind it there. So the bytes a client reads, the backpressure and the
    /// errors are NIO's exactly; only the common case skips its write path.
    @inline(__always)
    func write(_ bytes: ByteBuffer, wrapped: NIOAny) {
        guard let socket, writesInNIO == 0 else {
            writeThroughNIO(bytes, wrapped: wrapped)
            return
        }
        switch socket.send(bytes) {
        case .complete:
            return
        case .partial(let written):
            writeThroughNIO(bytes.getSlice(at: bytes.readerIndex + written, length: bytes.readableBytes - written)!, wrapped: nil)
        case .wouldBlock:
            writeThroughNIO(bytes, wrapped: wrapped)
        case .failed:
            // The peer is gone (or the socket broke): NIO's write fails the same way and closes
            // the connection, which is how the daemon finds out.
            socket.close()
            self.socket = nil
            writeThroughNIO(bytes, wrapped: wrapped)
        }
    }

    private func writeThroughNIO(_ bytes: ByteBuffer, wrapped: NIOAny?) {
        guard socket != nil else {
            context.writeAndFlush(wrapped ?? NIOAny(bytes), promise: nil)
            return
        }
        // Counted until NIO has written it (or failed it when the connection closes).
        writesInNIO += 1
        let promise = context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.assumeIsolated().whenComplete { [weak self] _ in
            self?.writesInNIO -= 1
        }
        context.writeAndFlush(wrapped ?? NIOAny(bytes), promise: promise)
    }

    /// A new subscription to `container`, replacing any earlier one (what waited for that one
    /// goes with it).
    func subscribe(to container: PublishedContainer, rate: Double?, waits: Bool = false) -> Subscription {
        unsubscribe(from: container)
        let subscription = Subscription(client: self, container: container, rate: rate, waits: waits)
        subscriptions.append(subscription)
        return subscription
    }

    func unsubscribe(from container: PublishedContainer) {
        guard let index = subscriptions.firstIndex(where: { $0.container === container }) else { return }
        subscriptions.remove(at: index).isActive = false
    }

    /// Whether the connection subscribes to or observes `container`.
    func follows(_ container: PublishedContainer) -> Bool {
        subscriptions.contains { $0.container === container } || observers.values.contains { $0.container === container }
    }

    /// The socket drained: send what waited. Or it filled: a client that does not read for
    /// `stuckLimit` is dropped then, whether or not anything is published meanwhile.
    func writabilityChanged() {
        if channel.isWritable {
            unwritableSince = nil
            stuckCheck?.cancel()
            stuckCheck = nil
            let now = channel.eventLoop.now
            for subscription in subscriptions where subscription.waiting && !subscription.queued {
                subscription.offerLatest(now: now)
            }
            for observer in observers.values { observer.flush() }
            sendOutbox()
        } else if unwritableSince == nil {
            let since = channel.eventLoop.now
            unwritableSince = since
            stuckCheck = channel.eventLoop.assumeIsolated().scheduleTask(deadline: since + stuckLimit) { [weak self] in
                self?.dropIfStuck()
            }
        }
    }

    private func dropIfStuck() {
        stuckCheck = nil
        guard unwritableSince != nil, !channel.isWritable else { return }
        // It has not read for a long time: free its resources for everyone else.
        let seconds = Double(stuckLimit.nanoseconds) / 1e9
        logger.warning("dropping a client (pid \(credentials.pid), uid \(uid)) that has not read for more than \(seconds) s")
        unwritableSince = nil
        channel.close(promise: nil)
    }

    func cancelAll() {
        socket?.close()
        socket = nil
        for subscription in subscriptions { subscription.isActive = false }
        subscriptions.removeAll()
        observers.removeAll()
        waiters.removeAll()
        stuckCheck?.cancel()
        stuckCheck = nil
    }
}
