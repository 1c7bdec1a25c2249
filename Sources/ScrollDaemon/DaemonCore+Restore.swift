import NIOCore
import ScrollModel
import ScrollProtocol
import ScrollSession

/// DESIGN §16 on the daemon's side: keeping the session current in its store, and taking it
/// back after a restart.
extension DaemonCore {
    // MARK: Keeping

    /// Writes the session's document (and every container's slot) to the store: after any
    /// change of containers, connections, subscriptions or observations — never per publication.
    func sessionChanged() {
        guard let store else { return }
        let snapshot = self.snapshot
        store.nameHashes = snapshot.containers.map { SnapshotMemory.nameHash($0.name) }
        var slots: [SnapshotMemory.Slot] = []
        for (index, container) in snapshot.containers.enumerated() {
            let state = session.engine.slots[index].container.state
            slots.append(SnapshotMemory.Slot(seq: container.seq, time: state.time, offset: container.offset, velocity: state.velocity, phase: state.phase, nameHash: store.nameHashes[index]))
        }
        if !store.memory.write(document: snapshot.encoded(), slots: slots) {
            logger.error("the session no longer fits in its store: a restart now would lose what changed since")
        }
    }

    /// The session as it stands.
    package var snapshot: SessionSnapshot {
        var containers: [SessionSnapshot.Container] = []
        let settings = session.containerSettings
        for (index, name) in session.names.enumerated() {
            containers.append(SessionSnapshot.Container(
                name: name, settings: settings[name] ?? [], seq: session.seqs[index],
                offset: session.engine.slots[index].container.state.contentOffset, paused: session.paused[index],
                pausedBy: pausedBy[name], owner: owners[name]
            ))
        }
        var connections: [SessionSnapshot.Connection] = []
        for client in clients.values.sorted(by: { $0.number < $1.number }) {
            var requests: [Operation] = []
            for subscription in client.subscriptions {
                let rate = subscription.interval.map { 1e9 / Double($0.nanoseconds) }
                requests.append(.subscribe(container: subscription.feed.name, rate: rate))
            }
            for feed in feeds {
                for observer in feed.observers where observer.client === client {
                    requests.append(.observe(container: feed.name, observation: observer.observation, id: observer.id))
                }
            }
            connections.append(SessionSnapshot.Connection(number: client.number, requests: requests))
        }
        return SessionSnapshot(instance: instance, nextClientNumber: nextClientNumber, focus: session.focus, focusedBy: focusedBy, containers: containers, connections: connections)
    }

    /// A connection was accepted: its socket goes to the store (one taken back is there already).
    func storeConnection(_ client: Client) {
        guard let store, store.kept.insert(client.number).inserted else { return }
        store.connections?.keep(client.channel, number: client.number)
    }

    /// A connection closed: its socket leaves the store.
    func forgetConnection(_ client: Client) {
        guard let store, store.kept.remove(client.number) != nil else { return }
        store.connections?.forget(number: client.number)
    }

    // MARK: Taking back

    /// Puts `store` in charge of keeping the session; `taken` is what a previous process of it
    /// left there (nil: nothing, or it was refused), and `connections` the numbers of the
    /// connections whose sockets came back with it.
    package func keep(in store: SessionStore, restoring taken: (snapshot: SessionSnapshot, slots: [SnapshotMemory.Slot?])?, connections numbers: [Int]) {
        self.store = store
        store.kept = Set(numbers)
        nextClientNumber = max(nextClientNumber, (numbers.max() ?? 0) + 1)
        guard let (snapshot, slots) = taken else {
            store.sessionLost = !numbers.isEmpty
            sessionChanged()
            return
        }
        instance = snapshot.instance
        nextClientNumber = max(nextClientNumber, snapshot.nextClientNumber)
        let refused = session.restore(snapshot.restoredContainers, focus: snapshot.focus, at: eventLoop.timestamp) { collect($0) }
        for (name, problem) in refused { logger.error("restart: container \(name) not taken back: \(problem)") }
        syncFeeds()
        for container in snapshot.containers where session.index(of: container.name) != nil {
            if let owner = container.owner { owners[container.name] = owner }
            if let pauser = container.pausedBy { pausedBy[container.name] = pauser }
        }
        focusedBy = session.focus == nil ? nil : snapshot.focusedBy
        for (container, slot) in zip(snapshot.containers, slots) { store.previous[container.name] = slot }
        let present = Set(numbers)
        for connection in snapshot.connections where present.contains(connection.number) {
            store.pending[connection.number] = connection.requests
        }
        deliver()
        deliverObservations()
        reschedule()
        // What connections that did not come back had set is undone, as if they had closed.
        let gone = Set(owners.values).union(pausedBy.values).union(focusedBy.map { [$0] } ?? []).subtracting(present)
        for number in gone.sorted() { undo(forConnection: number) }
        sessionChanged()
        logger.notice("restart: took back \(session.names.count) containers and \(numbers.count) connections (instance \(instance))")
    }

    /// A connection taken back is active again: its subscriptions and observations resume, each
    /// subscriber first getting its container's current state (and each observation its value,
    /// with `old` the value last sent before the restart, when it changed). A connection whose
    /// session was refused is greeted anew (a new `instance`: it has met a new daemon).
    func resume(_ client: Client) {
        guard let store, let requests = store.pending.removeValue(forKey: client.number) else {
            if store?.sessionLost ?? false { client.reply(welcome()) }
            return
        }
        for operation in requests {
            switch operation {
            case let .observe(name, observation, id):
                guard let index = session.index(of: name), client.observers[id] == nil else { continue }
                let feed = feeds[index]
                let observer = Observer(id: id, observation: observation, client: client, feed: feed)
                client.observers[id] = observer
                feed.observers.append(observer)
                var state = currentState(index)
                if let slot = store.previous[name] {
                    var before = state
                    before.phase = slot.phase
                    before.velocity = slot.velocity
                    before.geometry.contentOffset = slot.offset
                    observer.assume(value(of: observation, in: before, container: index))
                }
                state = currentState(index)
                observer.offer(value(of: observation, in: state, container: index), seq: session.seqs[index], time: state.time)
            default:
                client.reply((try? perform(Request(operation: operation), for: client)) ?? ByteBuffer())
            }
        }
        sessionChanged()
    }
}

extension Operation {
    /// Whether a request of this kind changes the session's document. A scroll changes only
    /// what the container's slot holds (written as it publishes); a reload rewrites the
    /// document itself (`apply`).
    var changesStore: Bool {
        switch self {
        case .configure, .pause, .resume, .remove, .focus, .subscribe, .unsubscribe, .observe, .unobserve: return true
        case .scrollTo, .scrollBy, .get, .devices, .reload, .ping: return false
        }
    }
}
