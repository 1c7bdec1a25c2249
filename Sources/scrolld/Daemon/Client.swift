import Logging
import NIOCore

/// One connected client: its subscriptions and what is waiting to be sent to it.
///
/// Delivery is latest-wins per subscription: while the socket cannot take more (NIO's
/// writability) or the client's `rate` says it is too soon, a newer state replaces the one
/// waiting, so a slow reader costs one buffered state per container, never a queue.
final class Client {
    let channel: Channel
    /// The connection's handler context: published states are written from here straight to
    /// the socket's end of the pipeline, without the channel's generic write path (which wraps
    /// every write anew and walks the pipeline from its tail) — the fan-out's per-subscriber cost.
    let context: ChannelHandlerContext
    let credentials: PeerCredentials
    var uid: UInt32 { credentials.uid }
    /// One per subscribed container (rarely more than one: searched in order).
    private(set) var subscriptions: [Subscription] = []
    /// Set when the socket stops taking data; a client stuck longer than `stuckLimit` is dropped.
    var unwritableSince: NIODeadline?
    let stuckLimit: TimeAmount
    let logger: Logger

    /// How long a client's socket may stay full before it is dropped (`run
    /// --stuck-client-timeout` changes it).
    static let defaultStuckLimit = TimeAmount.seconds(30)

    init(context: ChannelHandlerContext, credentials: PeerCredentials, stuckLimit: TimeAmount = Client.defaultStuckLimit, logger: Logger) {
        channel = context.channel
        self.context = context
        self.credentials = credentials
        self.stuckLimit = stuckLimit
        self.logger = logger
    }

    var id: ObjectIdentifier { ObjectIdentifier(self) }

    /// Sends a reply line at once (replies are never coalesced).
    func reply(_ bytes: ByteBuffer) {
        context.writeAndFlush(NIOAny(bytes), promise: nil)
    }

    func subscription(to container: Int) -> Subscription? {
        subscriptions.first { $0.container == container }
    }

    /// A new subscription to `container`, replacing any earlier one (its waiting state and
    /// rate timer go with it).
    func subscribe(to container: Int, rate: Double?) -> Subscription {
        unsubscribe(from: container)
        let subscription = Subscription(client: self, container: container, rate: rate)
        subscriptions.append(subscription)
        return subscription
    }

    func unsubscribe(from container: Int) {
        guard let index = subscriptions.firstIndex(where: { $0.container == container }) else { return }
        subscriptions.remove(at: index).flush?.cancel()
    }

    /// Offers a published state to a subscription that cannot take every state right now (see
    /// `Subscription.offer`): sent now if possible, else kept as the latest pending one.
    func offer(_ state: ByteBuffer, to subscription: Subscription) {
        if !channel.isWritable {
            if let since = unwritableSince, NIODeadline.now() - since > stuckLimit {
                // It has not read for a long time: free its resources for everyone else.
                let seconds = Double(stuckLimit.nanoseconds) / 1e9
                logger.warning("dropping a client (pid \(credentials.pid), uid \(uid)) that has not read for more than \(seconds) s")
                unwritableSince = nil
                channel.close(promise: nil)
                return
            }
            subscription.pending = state
            return
        }
        if let rate = subscription.rate, let last = subscription.lastSent {
            let due = last + TimeAmount.nanoseconds(Int64(1e9 / rate))
            if NIODeadline.now() < due {
                subscription.pending = state
                if subscription.flush == nil {
                    // On the loop that runs the fan-out: the client and subscription stay on it.
                    subscription.flush = channel.eventLoop.assumeIsolated().scheduleTask(deadline: due) { [weak self] in
                        self?.flushRateLimited(subscription)
                    }
                }
                return
            }
        }
        subscription.pending = nil
        if subscription.rate != nil { subscription.lastSent = NIODeadline.now() }
        context.writeAndFlush(NIOAny(state), promise: nil)
    }

    private func flushRateLimited(_ subscription: Subscription) {
        // NIO may still run a task cancelled in the same tick (an unsubscribe): only a
        // subscription still in force is flushed.
        guard subscriptions.contains(where: { $0 === subscription }) else { return }
        subscription.flush = nil
        guard let pending = subscription.pending else { return }
        subscription.pending = nil
        offer(pending, to: subscription)
    }

    /// The socket drained: send what waited.
    func writabilityChanged() {
        if channel.isWritable {
            unwritableSince = nil
            for subscription in subscriptions {
                if let pending = subscription.pending, subscription.flush == nil {
                    subscription.pending = nil
                    offer(pending, to: subscription)
                }
            }
        } else if unwritableSince == nil {
            unwritableSince = .now()
        }
    }

    func cancelAll() {
        for subscription in subscriptions { subscription.flush?.cancel() }
        subscriptions.removeAll()
    }
}
