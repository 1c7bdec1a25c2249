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
    let uid: UInt32
    var subscriptions: [String: Subscription] = [:]
    /// Set when the socket stops taking data; a client stuck longer than `stuckLimit` is dropped.
    var unwritableSince: NIODeadline?
    static let stuckLimit = TimeAmount.seconds(30)

    init(channel: Channel, uid: UInt32) {
        self.channel = channel
        self.uid = uid
    }

    var id: ObjectIdentifier { ObjectIdentifier(self) }

    /// Sends a reply line at once (replies are never coalesced).
    func reply(_ bytes: ByteBuffer) {
        channel.writeAndFlush(bytes, promise: nil)
    }

    /// Offers a published state: sent now if possible, else kept as the latest pending one.
    func offer(_ state: ByteBuffer, container: String) {
        guard var subscription = subscriptions[container] else { return }
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
        channel.writeAndFlush(state, promise: nil)
    }

    private func flushRateLimited(_ container: String) {
        guard var subscription = subscriptions[container] else { return }
        subscription.flush = nil
        let pending = subscription.pending
        subscription.pending = nil
        subscriptions[container] = subscription
        if let pending { offer(pending, container: container) }
    }

    /// The socket drained: send what waited.
    func writabilityChanged() {
        if channel.isWritable {
            unwritableSince = nil
            for (container, subscription) in subscriptions {
                if let pending = subscription.pending, subscription.flush == nil {
                    offer(pending, container: container)
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
