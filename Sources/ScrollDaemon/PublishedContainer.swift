import NIOCore
import ScrollModel

/// Everything the daemon keeps about one container besides its model (the session's engine
/// slot holds that): who subscribes and observes, the states published since the last delivery
/// and the latest line, one timer per rate, and the connections whose `owned` or `pause` are in
/// force on it. One record, keyed by the container's ``ContainerID``: removing a container is
/// one deletion.
final class PublishedContainer {
    let id: ContainerID
    /// The container's name, as its state lines carry it.
    let name: String
    let eventLoop: EventLoop
    /// In subscription order; every publish is offered to each.
    @exclusivity(unchecked) var subscriptions: [Client.Subscription] = []
    /// The observations of this container, in the order they were made.
    @exclusivity(unchecked) var observers: [Observer] = []
    /// The state lines published since the last delivery; nil: none.
    @exclusivity(unchecked) var batch: PublishedBatch?
    /// The last line delivered: a subscription left waiting (socket full, or too soon for its
    /// rate) gets this when it can take a state again, never an older one.
    @exclusivity(unchecked) var latest: ByteBuffer?
    /// The connection that created it with `"owned": true` (docs/design.md §19): its close
    /// removes the container. Nil: nobody's (the file's, or not owned). Changed through
    /// ``Connections``, which also keeps what each connection holds.
    var owner: Int?
    /// The connections whose `pause` holds it, in the order they paused: a `resume` from
    /// anyone clears them all; a close drops its own, and the last one's resumes the container.
    /// Changed through ``Connections``, as `owner`.
    var pausers = PauseHolders()
    /// `pausers` as the restart store's document lists them, in the order they paused. Set
    /// only by a restart, which then builds ``Connections/held`` again.
    var pausedBy: [Int] {
        get { pausers.inOrder }
        set { pausers = PauseHolders(newValue) }
    }
    private var rateGroups: [RateGroup] = []

    init(id: ContainerID, name: String, eventLoop: EventLoop) {
        self.id = id
        self.name = name
        self.eventLoop = eventLoop
    }

    /// Whether anybody follows it: what it publishes is encoded only then.
    var isFollowed: Bool { !subscriptions.isEmpty || !observers.isEmpty }

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
