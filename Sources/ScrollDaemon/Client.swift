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
    /// One per subscribed container, by the container's identity.
    private var subscribed = ArrivalOrder<ObjectIdentifier, Subscription>()
    /// Its subscriptions, in the order they were made.
    var subscriptions: [Subscription] { subscribed.inOrder }
    /// The connection's observations by their ids.
    var observers = ArrivalOrder<RequestID, Observer>()
    /// Its subscriptions and observations waiting for their containers (docs/design.md §20),
    /// at most ``Limits/waiting``.
    var waiters = ConnectionWaiters()
    /// Its observations, waiting ones included: at most ``Limits/observations``.
    var observationCount: Int { observers.count + waiters.observations }
    /// Observation messages of the delivery under way (``queue(_:)``, ``sendOutbox()``).
    private var outbox: [UInt8] = []
    /// The most outbox capacity kept between deliveries, bytes.
    private static let outboxKeptCapacity = 64 * 1024
    /// Set when the socket stops taking data; a client stuck longer than `stuckLimit` is dropped.
    var unwritableSince: NIODeadline?
    private var stuckCheck: Scheduled<Void>?
    let stuckLimit: TimeAmount
    /// Set once the connection is being closed for not reading.
    private var dropped = false
    /// False once the daemon has let go of the connection (``DaemonCore/disconnected(_:)``):
    /// nothing may follow a container for it then. A write that fails closes its connection in
    /// the middle of whatever wrote, and a loop over many connections' waiters can still hold
    /// this one's next; an observation started for it would outlive it.
    package internal(set) var isConnected = true
    /// Bytes of replies NIO holds (written to it and not yet to the socket).
    private var replyBacklog = 0
    let logger: Logger

    /// What NIO may hold of a connection's replies, bytes: past it the client is dropped at once
    /// (docs/design.md, "Limits"). Above the largest reply (a `welcome` naming 1000 containers
    /// of 255 bytes is about 260 KB) and a delivery's observations.
    package static let backlogLimit = 1 << 20

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
    ///
    /// Some replies come of what others do (a `removed`, the state of each container a waiter
    /// waited for), so a connection that reads none of them would hold the daemon's memory
    /// until the stuck-client timeout: once NIO holds more than ``backlogLimit`` of its replies,
    /// it is dropped. States do not count: a slow reader's are latest-wins.
    func reply(_ bytes: ByteBuffer) {
        guard replyBacklog + bytes.readableBytes <= Self.backlogLimit else {
            drop(reason: "whose unread replies passed \(Self.backlogLimit) bytes")
            return
        }
        write(bytes, wrapped: NIOAny(bytes), reply: true)
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
    func write(_ bytes: ByteBuffer, wrapped: NIOAny, reply: Bool = false) {
        guard let socket, writesInNIO == 0 else {
            writeThroughNIO(bytes, wrapped: wrapped, reply: reply)
            return
        }
        switch socket.send(bytes) {
        case .complete:
            return
        case .partial(let written):
            writeThroughNIO(bytes.getSlice(at: bytes.readerIndex + written, length: bytes.readableBytes - written)!, wrapped: nil, reply: reply)
        case .wouldBlock:
            writeThroughNIO(bytes, wrapped: wrapped, reply: reply)
        case .failed:
            // The peer is gone (or the socket broke): NIO's write fails the same way and closes
            // the connection, which is how the daemon finds out.
            socket.close()
            self.socket = nil
            writeThroughNIO(bytes, wrapped: wrapped, reply: reply)
        }
    }

    private func writeThroughNIO(_ bytes: ByteBuffer, wrapped: NIOAny?, reply: Bool) {
        let direct = socket != nil
        let counted = reply ? bytes.readableBytes : 0
        guard direct || counted > 0 else {
            context.writeAndFlush(wrapped ?? NIOAny(bytes), promise: nil)
            return
        }
        // Counted until NIO has written it (or failed it when the connection closes).
        if direct { writesInNIO += 1 }
        replyBacklog += counted
        let promise = context.eventLoop.makePromise(of: Void.self)
        promise.futureResult.assumeIsolated().whenComplete { [weak self] _ in
            guard let self else { return }
            if direct { self.writesInNIO -= 1 }
            self.replyBacklog -= counted
        }
        context.writeAndFlush(wrapped ?? NIOAny(bytes), promise: promise)
    }

    /// A new subscription to `container`, replacing any earlier one (what waited for that one
    /// goes with it).
    func subscribe(to container: PublishedContainer, rate: Double?, waits: Bool = false) -> Subscription {
        unsubscribe(from: container)
        let subscription = Subscription(client: self, container: container, rate: rate, waits: waits)
        subscribed.append(subscription, for: ObjectIdentifier(container))
        return subscription
    }

    func unsubscribe(from container: PublishedContainer) {
        subscribed.remove(ObjectIdentifier(container))?.isActive = false
    }

    /// Whether the connection subscribes to `container`.
    func isSubscribed(to container: PublishedContainer) -> Bool { subscribed[ObjectIdentifier(container)] != nil }

    /// Whether the connection subscribes to or observes `container`.
    func follows(_ container: PublishedContainer) -> Bool {
        subscribed[ObjectIdentifier(container)] != nil || observers.values.contains { $0.container === container }
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
        drop(reason: "that has not read for more than \(seconds) s")
    }

    /// Closes the connection of a client that does not read, saying why once.
    private func drop(reason: String) {
        guard !dropped else { return }
        dropped = true
        logger.warning("dropping a client (pid \(credentials.pid), uid \(uid)) \(reason)")
        unwritableSince = nil
        channel.close(promise: nil)
    }

    func cancelAll() {
        socket?.close()
        socket = nil
        for subscription in subscriptions { subscription.isActive = false }
        subscribed.removeAll()
        observers.removeAll()
        waiters.removeAll()
        stuckCheck?.cancel()
        stuckCheck = nil
    }
}
