import NIOCore

/// One connected client: its subscriptions and what is waiting to be sent to it.
///
/// Delivery is latest-wins per subscription: while the socket cannot take more (NIO's
/// writability) or the client's `rate` says it is too soon, a newer state replaces the one
/// waiting, so a slow reader costs one buffered state per container, never a queue.
final class Client {
    struct Subscription {
        var rate: Double?
        var pending: ByteBuffer?
        var lastSent: NIODeadline?
        var flush: Scheduled<Void>?
    }

    let channel: Channel
    /// The connection's handler context: published states are written from here straight to
    /// the socket's end of the pipeline, without the channel's generic write path (which wraps
    /// every write anew and walks the pipeline from its tail) — the fan-out's per-subscriber cost.
    let context: ChannelHandlerContext
    let uid: UInt32
    var subscriptions: [String: Subscription] = [:]
    /// Set when the socket stops taking data; a client stuck longer than `stuckLimit` is dropped.
    var unwritableSince: NIODeadline?
    static let stuckLimit = TimeAmount.seconds(30)

    init(context: ChannelHandlerContext, uid: UInt32) {
        channel = context.channel
        self.context = context
        self.uid = uid
    }

    var id: ObjectIdentifier { ObjectIdentifier(self) }

    /// Sends a reply line at once (replies are never coalesced).
    func reply(_ bytes: ByteBuffer) {
        channel.writeAndFlush(bytes, promise: nil)
    }

    /// Offers a published state (`data` is `state`, wrapped once for all subscribers): sent now
    /// if possible, else kept as the latest pending one.
    func offer(_ state: ByteBuffer, _ data: NIOAny, container: String) {
        guard var subscription = subscriptions[container] else { return }
        // The common case, once per subscriber per state: nothing waits, no rate, room to write.
        if subscription.rate == nil, subscription.pending == nil, channel.isWritable {
            context.writeAndFlush(data, promise: nil)
            return
        }
        if !channel.isWritable {
            if let since = unwritableSince, NIODeadline.now() - since > Self.stuckLimit {
                // It has not read for a long time: free its resources for everyone else.
                channel.close(promise: nil)
                return
            }
            subscription.pending = state
            subscriptions[container] = subscription
            return
        }
        if let rate = subscription.rate, let last = subscription.lastSent {
            let interval = TimeAmount.nanoseconds(Int64(1e9 / rate))
            let due = last + interval
            if NIODeadline.now() < due {
                subscription.pending = state
                if subscription.flush == nil {
                    subscription.flush = channel.eventLoop.scheduleTask(deadline: due) { [weak self] in
                        self?.flushRateLimited(container)
                    }
                }
                subscriptions[container] = subscription
                return
            }
        }
        subscription.pending = nil
        subscription.lastSent = NIODeadline.now()
        subscriptions[container] = subscription
        context.writeAndFlush(data, promise: nil)
    }

    private func flushRateLimited(_ container: String) {
        guard var subscription = subscriptions[container] else { return }
        subscription.flush = nil
        let pending = subscription.pending
        subscription.pending = nil
        subscriptions[container] = subscription
        if let pending { offer(pending, NIOAny(pending), container: container) }
    }

    /// The socket drained: send what waited.
    func writabilityChanged() {
        if channel.isWritable {
            unwritableSince = nil
            for (container, subscription) in subscriptions {
                if let pending = subscription.pending, subscription.flush == nil {
                    offer(pending, NIOAny(pending), container: container)
                }
            }
        } else if unwritableSince == nil {
            unwritableSince = .now()
        }
    }

    func cancelAll() {
        for subscription in subscriptions.values { subscription.flush?.cancel() }
        subscriptions.removeAll()
    }
}
