import NIOCore
import ScrollModel
import ScrollProtocol
import ScrollSession

/// Hands what the session publishes to the containers' subscribers and observers
/// (docs/design.md §4, §13): one ``PublishedContainer`` per container, each state encoded once
/// however many subscribe, and delivered once the command that published it is done.
final class Publisher {
    // The stored properties a publication touches are read and written on the loop's one
    // thread, never across a call that could come back in (a hand-out walks copies of its
    // lists): their dynamic exclusivity checks, several per state, are left out.
    let eventLoop: EventLoop
    /// One record per container, by identity.
    @exclusivity(unchecked) private(set) var containers: [ContainerID: PublishedContainer] = [:]
    /// The engine's next container identity when records were last added: every container
    /// with a lower one has its record (or is gone). While the engine's is the same, no
    /// container came (checked after every command, input events included).
    private var knownBefore = 0
    /// The containers with a batch to deliver, in the order their first state came.
    @exclusivity(unchecked) private var batched: [PublishedContainer] = []
    /// States published during the current command to containers somebody observes, evaluated
    /// once the command is done (``deliverObservations(from:)``: the values read the containers'
    /// rows).
    @exclusivity(unchecked) private var observed: [Publication] = []
    /// One encoder for all containers: its remembered opening and sizes are per container, so
    /// interleaved containers re-encode them, which costs no more than having no memory.
    @exclusivity(unchecked) private var encoder = StateEncoder()
    @exclusivity(unchecked) private var line: [UInt8] = []
    /// Set while states or observations are handed out: a write that fails closes its
    /// connection right there, and what the connection leaves behind must wait until the
    /// hand-out is done (``DaemonCore/disconnected(_:)``).
    private(set) var delivering = false
    /// While removals are coalesced (``coalescingRemovals(_:)``), the connections with
    /// `removed` lines in their outbox, in the order they got their first; nil otherwise.
    private var removalSenders: [Client]?

    init(eventLoop: EventLoop) {
        self.eventLoop = eventLoop
    }

    subscript(id: ContainerID) -> PublishedContainer? { containers[id] }

    /// A record for every container of `engine` that has none yet (created by the last
    /// command: most commands create none). Returns the new records with their positions.
    ///
    /// Identities grow with the position, and the engine's next one says whether any came since
    /// the last call: the new containers are the last ones, found without looking at the others
    /// (a look at them all after each command made removing a thousand containers quadratic).
    @discardableResult
    func addContainers(of engine: ScrollEngine) -> [(PublishedContainer, index: Int)] {
        guard engine.nextID != knownBefore else { return [] }
        let slots = engine.slots
        var first = slots.endIndex
        while first > slots.startIndex, slots[first - 1].id.rawValue >= knownBefore { first -= 1 }
        knownBefore = engine.nextID
        var added: [(PublishedContainer, index: Int)] = []
        for index in first..<slots.endIndex where containers[slots[index].id] == nil {
            let container = PublishedContainer(id: slots[index].id, name: slots[index].container.name, eventLoop: eventLoop)
            containers[slots[index].id] = container
            added.append((container, index))
        }
        return added
    }

    /// Encodes each state of a followed container once, into its batch, and notes the
    /// observed ones.
    func collect(_ publications: Publications) {
        for publication in publications {
            guard let container = containers[publication.id], container.isFollowed else { continue }
            if !container.observers.isEmpty { observed.append(publication) }
            guard !container.subscriptions.isEmpty else { continue }
            line.removeAll(keepingCapacity: true)
            encoder.encode(publication.state, container: container.name, seq: publication.seq, paused: publication.paused, into: &line)
            line.append(UInt8(ascii: "\n"))
            if container.batch == nil {
                container.batch = PublishedBatch()
                batched.append(container)
            }
            container.batch!.append(line: line)
        }
    }

    /// Hands each container's batch to its subscribers: the same bytes to every one, the batch's
    /// last line being the latest state (what a slow or rate-limited client gets instead).
    /// The batch is wrapped for NIO once, not once per subscriber.
    func deliver() {
        guard !batched.isEmpty else { return }
        delivering = true
        defer { delivering = false }
        // One clock read per delivery, for the rate-limited subscriptions.
        let now = eventLoop.now
        let due = batched
        batched.removeAll(keepingCapacity: true)
        for container in due {
            guard let batch = container.batch.take() else { continue }
            container.latest = batch.latest
            let lines = batch.lines
            let data = NIOAny(lines)
            // A copy of the list: a failed write closes its client, which changes it.
            let subscriptions = container.subscriptions
            for subscription in subscriptions { subscription.offer(lines, wrapped: data, now: now) }
        }
    }

    /// Whether states published since the last delivery wait for their observers.
    var hasObserved: Bool { !observed.isEmpty }

    /// Offers the states published during the last command to the observers of their
    /// containers, each value evaluated by `source` (the model reads the container's rows).
    func deliverObservations(from source: some ObservationSource) {
        guard !observed.isEmpty else { return }
        delivering = true
        defer { delivering = false }
        // Each connection's messages of this delivery go out in one write, after all of them.
        var senders: [Client] = []
        for publication in observed {
            guard let container = containers[publication.id] else { continue }
            for observer in container.observers {
                guard let value = source.value(of: observer.observation, container: publication.id, in: publication.state) else { continue }
                if observer.queue(value, seq: publication.seq, time: publication.state.time) { senders.append(observer.client) }
            }
        }
        observed.removeAll(keepingCapacity: true)
        for client in senders { client.sendOutbox() }
    }

    // MARK: Followers

    /// A subscription replaces the client's earlier one to the same container in place, so
    /// subscribers keep their order.
    func subscribe(_ client: Client, to container: PublishedContainer, rate: Double?, waits: Bool = false) {
        guard client.isConnected else { return }
        // Only a connection already subscribed has a place to search for (a container made
        // for thousands of waiting connections would search its list once for each).
        let subscribed = client.isSubscribed(to: container)
        let subscription = client.subscribe(to: container, rate: rate, waits: waits)
        if subscribed, let position = container.subscriptions.firstIndex(where: { $0.client === client }) {
            container.subscriptions[position] = subscription
        } else {
            container.subscriptions.append(subscription)
            subscriptionCount += 1
        }
    }

    // MARK: Waiting (docs/design.md §20)

    /// The subscriptions and observations waiting, by the name of their container.
    private(set) var waiting: [String: WaitingList] = [:]

    /// How many wait over every connection (``Limits/allWaiting``).
    private(set) var waiterCount = 0

    /// The limit a waiter would pass.
    enum WaitLimit {
        /// ``Limits/waiting``, of its connection.
        case connection
        /// ``Limits/allWaiting``, of the daemon.
        case daemon
    }

    /// `waiter` waits for its container; it replaces its client's waiting subscription to the
    /// same name, if it is one. The limit it would pass, and nothing changes, when its client
    /// or the daemon has as many waiting as they may.
    @discardableResult
    func wait(_ waiter: Waiter) -> WaitLimit? {
        let client = waiter.client
        guard client.isConnected else { return nil }
        if case .subscription = waiter.kind, let earlier = client.waiters.subscription(to: waiter.name) {
            unwait(earlier)
        }
        guard client.waiters.count < Limits.waiting else { return .connection }
        guard waiterCount < Limits.allWaiting else { return .daemon }
        client.waiters.append(waiter)
        waiting[waiter.name, default: WaitingList()].append(waiter)
        waiterCount += 1
        if waiter.observationID != nil { observationCount += 1 }
        return nil
    }

    /// `waiter` waits no more (unsubscribed or unobserved).
    func unwait(_ waiter: Waiter) {
        waiter.client.waiters.remove(waiter)
        stopWaiting(waiter)
    }

    /// Takes `waiter` off its name's list (its client's list is the caller's).
    private func stopWaiting(_ waiter: Waiter) {
        guard waiting[waiter.name]?.remove(waiter) == true else { return }
        waiterCount -= 1
        if waiter.observationID != nil { observationCount -= 1 }
        if waiting[waiter.name]?.isEmpty == true { waiting[waiter.name] = nil }
    }

    /// The waiters for a container called `name`, byte for byte, in the order they came;
    /// they wait no more. One pass over them.
    func takeWaiters(for name: String) -> [Waiter] {
        guard let list = waiting[name] else { return [] }
        let taken = list.inOrder.filter { $0.name.utf8.elementsEqual(name.utf8) }
        for waiter in taken {
            stopWaiting(waiter)
            waiter.client.waiters.remove(waiter)
        }
        return taken
    }

    /// The observations of the containers called `name`, waiting ones included (an upper
    /// bound: names equal as Swift strings count together).
    func observationCount(named name: String, in container: PublishedContainer?) -> Int {
        (container?.observers.count ?? 0) + (waiting[name]?.observations ?? 0)
    }

    /// Ends the client's subscription to `container`, or to every container it follows (nil).
    func unsubscribe(_ client: Client, from container: PublishedContainer?) {
        for followed in container.map({ [$0] }) ?? client.subscriptions.map(\.container) {
            removeSubscriptions(of: client, from: followed)
            client.unsubscribe(from: followed)
        }
    }

    /// The subscriptions over every connection and container, waiting ones not included
    /// (``Limits/allSubscriptions``).
    private(set) var subscriptionCount = 0

    /// Takes `client`'s subscription out of `container`'s list, keeping ``subscriptionCount``.
    private func removeSubscriptions(of client: Client, from container: PublishedContainer) {
        let before = container.subscriptions.count
        container.subscriptions.removeAll { $0.client === client }
        subscriptionCount -= before - container.subscriptions.count
    }

    /// The observations over every connection and container, waiting ones included
    /// (``Limits/allObservations``).
    private(set) var observationCount = 0

    func observe(_ observer: Observer) {
        guard observer.client.isConnected else { return }
        observer.client.observers.append(observer, for: observer.id)
        observer.container.observers.append(observer)
        observationCount += 1
    }

    func unobserve(_ observer: Observer) {
        observer.client.observers.remove(observer.id)
        removeObservers(of: observer.container) { $0 === observer }
    }

    /// Takes the observers that `match` off `container`'s list, and out of the count.
    private func removeObservers(of container: PublishedContainer, where match: (Observer) -> Bool) {
        let before = container.observers.count
        container.observers.removeAll(where: match)
        observationCount -= before - container.observers.count
    }

    /// A closed connection follows nothing any more.
    func forget(_ client: Client) {
        for waiter in client.waiters.inOrder { stopWaiting(waiter) }
        client.waiters.removeAll()
        for subscription in client.subscriptions {
            removeSubscriptions(of: client, from: subscription.container)
        }
        // Once per container, not once per observer: a connection may hold a thousand
        // observations of one container.
        var observed: [ObjectIdentifier: PublishedContainer] = [:]
        for observer in client.observers.values { observed[ObjectIdentifier(observer.container)] = observer.container }
        for container in observed.values {
            removeObservers(of: container) { $0.client === client }
        }
    }

    /// Runs `body`, whose removals queue their `removed` lines instead of sending each, then
    /// sends every follower's in one write. A connection that owned a thousand containers,
    /// each followed by forty others, costs forty writes when it closes, not forty thousand;
    /// each follower reads the same lines in the same order. Nothing else may write to a
    /// follower within `body` (its lines would overtake the queued ones).
    func coalescingRemovals(_ body: () -> Void) {
        removalSenders = []
        body()
        let senders = removalSenders ?? []
        // Back to sending at once before the writes: one that fails may close its connection,
        // and undoing what that one left (its own removals) runs right here.
        removalSenders = nil
        for client in senders { client.sendOutbox() }
    }

    /// The container `id` is gone: its subscribers and observers hear `removed` (once per
    /// connection) and lose their subscription; states it published and not yet delivered go
    /// with it.
    @discardableResult
    func remove(_ id: ContainerID) -> PublishedContainer? {
        guard let container = containers.removeValue(forKey: id) else { return nil }
        // With `wait`, they wait again (docs/design.md §20), in the order they came.
        for subscription in container.subscriptions where subscription.waits {
            wait(Waiter(client: subscription.client, name: container.name, kind: .subscription(rate: subscription.rate)))
        }
        for observer in container.observers where observer.waits {
            wait(Waiter(client: observer.client, name: container.name, kind: .observation(observer.observation, id: observer.id)))
        }
        container.batch = nil
        batched.removeAll { $0 === container }
        observed.removeAll { $0.id == id }
        var followers: [Client] = []
        var seen = Set<ObjectIdentifier>()
        for client in container.subscriptions.map(\.client) + container.observers.map(\.client) where seen.insert(client.id).inserted {
            followers.append(client)
        }
        if !followers.isEmpty {
            var bytes: [UInt8] = []
            ReplyEncoder.removed(container: container.name, into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
            let message = ByteBuffer(bytes: bytes)
            for observer in container.observers where observer.client.observers[observer.id] === observer {
                observer.client.observers.remove(observer.id)
            }
            for client in followers {
                client.unsubscribe(from: container)
                if removalSenders != nil {
                    if client.queue({ $0 += bytes }) { removalSenders?.append(client) }
                } else {
                    client.reply(message)
                }
            }
        }
        subscriptionCount -= container.subscriptions.count
        container.subscriptions.removeAll()
        removeObservers(of: container) { _ in true }
        return container
    }
}

/// What evaluates an observation of a published state: the core, over its session's model
/// (the core itself, not a copy of the session: passing the session by value would retain
/// everything it holds on every delivery).
protocol ObservationSource {
    /// The value of `observation` in `state`, which container `id` published; nil once the
    /// container is gone.
    func value(of observation: ScrollObservation, container id: ContainerID, in state: ScrollState) -> ObservationValue?
}
