import Logging
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
    let credentials: PeerCredentials
    var uid: UInt32 { credentials.uid }
    var subscriptions: [String: Subscription] = [:]
    /// Set when the socket stops taking data; a client stuck longer than `stuckLimit` is dropped.
    var unwritableSince: NIODeadline?
    let stuckLimit: TimeAmount
    let logger: Logger

    /// How long a client's socket may stay full before it is dropped (`run
    /// --stuck-client-timeout` changes it).
    static let defaultStuckLimit = TimeAmount.seconds(30)

    init(channel: Channel, credentials: PeerCredentials, stuckLimit: TimeAmount = Client.defaultStuckLimit, logger: Logger) {
        self.channel = channel
        self.credentials = credentials
        self.stuckLimit = stuckLimit
        self.logger = logger
    }

    var id: ObjectIdentifier { ObjectIdentifier(self) }

    /// Sends a reply line at once (replies are never coalesced).
    func reply(_ bytes: ByteBuffer) {
        channel.writeAndFlush(bytes, promise: nil)
    }

    /// Offers the states published since the last offer (`batch`, one line each, ending with
    /// `latest`): all of them at once if the client takes every state and its socket has room,
    /// else the latest, now or when its rate allows, else it waits as the latest pending one.
    func offer(_ batch: ByteBuffer, latest: ByteBuffer, container: String) {
        guard let subscription = subscriptions[container] else { return }
        if subscription.rate == nil, subscription.pending == nil, channel.isWritable {
            subscriptions[container]!.lastSent = .now()
            channel.writeAndFlush(batch, promise: nil)
            return
        }
        offer(latest, container: container)
    }

    /// Offers a published state: sent now if possible, else kept as the latest pending one.
    func offer(_ state: ByteBuffer, container: String) {
        guard var subscription = subscriptions[container] else { return }
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
