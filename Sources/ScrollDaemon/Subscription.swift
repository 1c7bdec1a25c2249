import NIOCore

extension Client {
    /// One client's subscription to one container, as the fan-out sees it: the container's
    /// ``PublishedContainer`` offers every publish to each of its subscriptions.
    ///
    /// The fan-out runs once per subscriber per state, so its common path reads `let`s, NIO's
    /// writability flag and `waiting` only. A subscription that cannot take a state (socket
    /// full, or too soon for its `rate`) is marked `waiting` and costs nothing per publish
    /// until it can: it then gets the feed's latest line, never a queue of them.
    final class Subscription {
        /// Strong: the client drops its subscriptions when it disconnects (`cancelAll`).
        let client: Client
        /// The client's, held here too so the fan-out reaches it in one step.
        let channel: Channel
        unowned let container: PublishedContainer
        /// One over the subscription's `rate` (nil: every state), and the timer it shares with
        /// the others at that rate.
        let interval: TimeAmount?
        let group: RateGroup?
        /// The `rate` asked for (nil: every state), as it was given.
        let rate: Double?
        /// Asked for with `wait` (docs/design.md §20): a `removed` leaves it waiting again.
        let waits: Bool
        /// A state newer than the last one sent waits for it (`container.latest`).
        var waiting = false
        /// In its rate group's queue (at most once).
        var queued = false
        /// False once unsubscribed or disconnected: the rate group drops it.
        var isActive = true
        /// When a rate-limited subscription was last sent to.
        var lastSent: NIODeadline?

        init(client: Client, container: PublishedContainer, rate: Double?, waits: Bool = false) {
            self.client = client
            self.rate = rate
            self.waits = waits
            channel = client.channel
            self.container = container
            if let rate {
                let interval = TimeAmount.nanoseconds(Int64(1e9 / rate))
                self.interval = interval
                group = container.rateGroup(interval: interval)
                // Every subscription starts with the current state (the reply to `subscribe`,
                // or the first line of one that waited): that is its first send, and the next
                // is an interval later.
                lastSent = client.channel.eventLoop.now
            } else {
                interval = nil
                group = nil
            }
        }

        /// Offers the states published since the last offer: `batch` (all of them, one line
        /// each; `wrapped`, the same wrapped for NIO once for every subscriber) in one write if
        /// this subscription takes every state and its socket has room, else the latest when it
        /// can (`offerLatest`).
        @inline(__always)
        func offer(_ batch: ByteBuffer, wrapped: NIOAny, now: NIODeadline) {
            if waiting { return }
            if interval == nil, channel.isWritable {
                client.write(batch, wrapped: wrapped)
                return
            }
            offerLatest(now: now)
        }

        /// The feed's latest state now if the socket has room and the rate allows, else it
        /// waits: for the socket to drain (`Client.writabilityChanged`) or for its rate group's
        /// next tick.
        func offerLatest(now: NIODeadline) {
            guard channel.isWritable else {
                waiting = true
                return
            }
            if let interval, let group, let lastSent, now < lastSent + interval {
                waiting = true
                group.enqueue(self, due: lastSent + interval)
                return
            }
            send(at: now)
        }

        func send(at time: NIODeadline) {
            waiting = false
            if interval != nil { lastSent = time }
            if let latest = container.latest { client.write(latest, wrapped: NIOAny(latest)) }
        }
    }
}
