import NIOCore

/// One container's published stream as its subscribers see it: who subscribes, the latest line
/// (what a subscription that could not take every state gets instead), and one timer per rate.
final class Feed {
    /// The container's index in the session; it moves down when a container before it is removed.
    var container: Int
    /// The container's name, as its state lines carry it.
    let name: String
    let eventLoop: EventLoop
    /// In subscription order; every publish is offered to each.
    var subscriptions: [Client.Subscription] = []
    /// The observations of this container, in the order they were made.
    var observers: [Observer] = []
    /// The last line delivered: a subscription left waiting (socket full, or too soon for its
    /// rate) gets this when it can take a state again, never an older one.
    var latest: ByteBuffer?
    private var rateGroups: [RateGroup] = []

    init(container: Int, name: String, eventLoop: EventLoop) {
        self.container = container
        self.name = name
        self.eventLoop = eventLoop
    }

    /// The timer shared by every subscription to this container at `interval`.
    ///
    /// Groups with nothing queued are forgotten here before a new one is made, so clients
    /// subscribing at ever new rates cannot grow this list: a forgotten group still serves the
    /// subscriptions that hold it, and a later subscription at its rate starts another (correct,
    /// if less shared).
    func rateGroup(interval: TimeAmount) -> RateGroup {
        if let group = rateGroups.first(where: { $0.interval == interval }) { return group }
        rateGroups.removeAll { $0.isIdle }
        let group = RateGroup(interval: interval, eventLoop: eventLoop)
        rateGroups.append(group)
        return group
    }
}
