import NIOCore

extension Client {
    /// One client's subscription to one container, as the fan-out sees it: `DaemonCore` keeps
    /// each container's subscriptions in one array and offers every publish to each.
    ///
    /// The fan-out runs once per subscriber per state, so what it reads is kept to `let`s and
    /// NIO's writability flag; the state it may change (`pending`, `lastSent`, `flush`) is only
    /// touched off the common path. (Swift checks exclusive access to a class's `var`s at run
    /// time, each read and write; a `let` needs no check.)
    final class Subscription {
        /// Strong: the client drops its subscriptions when it disconnects (`cancelAll`).
        let client: Client
        /// The client's, held here too so the fan-out reaches them in one step.
        let channel: Channel
        let context: ChannelHandlerContext
        /// The container's index in the engine (containers are never removed).
        let container: Int
        let rate: Double?
        /// The latest state not sent yet (socket full, or too soon for `rate`).
        var pending: ByteBuffer?
        var lastSent: NIODeadline?
        var flush: Scheduled<Void>?

        init(client: Client, container: Int, rate: Double?) {
            self.client = client
            channel = client.channel
            context = client.context
            self.container = container
            self.rate = rate
        }

        /// Offers the states published since the last offer: `batch` (all of them, one line
        /// each, wrapped once for every subscriber) in one write if this subscription takes
        /// every state and its socket has room, else `latest` (the batch's last line) through
        /// `Client.offer`, now, when its rate allows, or as the latest pending one.
        @inline(__always)
        func offer(_ batch: NIOAny, latest: ByteBuffer) {
            if rate == nil, channel.isWritable, pending == nil {
                context.writeAndFlush(batch, promise: nil)
            } else {
                client.offer(latest, to: self)
            }
        }
    }
}
