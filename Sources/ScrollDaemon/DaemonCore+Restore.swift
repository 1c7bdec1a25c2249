import NIOCore
import ScrollModel
import ScrollProtocol
import ScrollSession

/// docs/design.md §16 on the daemon's side: the store is told what changed (``RestartStore``
/// keeps the document), and a restarted daemon takes its session back.
extension DaemonCore {
    /// The containers changed (and with them, possibly, every connection's followers).
    func sessionChanged() { store?.containersChanged() }

    /// Only `client`'s subscriptions or observations changed.
    func sessionChanged(connection client: Client) { store?.connectionChanged(client) }

    /// Connection `number` closed leaving nothing behind.
    func sessionChanged(closed number: Int) { store?.connectionClosed(number) }

    // MARK: Taking back

    /// Puts `store` in charge of keeping the session; `taken` is what a previous process of it
    /// left there (nil: nothing, or it was refused), and `connections` the numbers of the
    /// connections whose sockets came back with it.
    package func keep(in store: RestartStore, restoring taken: (snapshot: RestartSnapshot, slots: [SnapshotMemory.Slot?])?, connections numbers: [Int]) {
        self.store = store
        store.core = self
        store.kept = Set(numbers)
        connections.nextNumber = max(connections.nextNumber, (numbers.max() ?? 0) + 1)
        guard let (snapshot, slots) = taken else {
            store.sessionLost = !numbers.isEmpty
            store.writeWholeSession()
            return
        }
        instance = snapshot.instance
        connections.nextNumber = max(connections.nextNumber, snapshot.nextClientNumber)
        let restoration = Restoration(containers: snapshot.restoredContainers, focus: snapshot.focus)
        let refused = (try? execute(.restore(restoration, at: eventLoop.timestamp)))?.refused ?? []
        for (name, problem) in refused { logger.error("restart: container \(name) not taken back: \(problem)") }
        for stored in snapshot.containers {
            guard let (_, container) = try? container(named: stored.name) else { continue }
            // A container the configuration file names now is the file's (as after a reload).
            if let owner = stored.owner, !session.fileContainers.contains(stored.name) { container.owner = owner }
            if let pauser = stored.pausedBy { container.pausedBy = pauser }
        }
        connections.focusedBy = session.focus == nil ? nil : snapshot.focusedBy
        for (container, slot) in zip(snapshot.containers, slots) { store.previous[container.name] = slot }
        let present = Set(numbers)
        for connection in snapshot.connections where present.contains(connection.number) {
            store.pending[connection.number] = connection.requests
        }
        finish()
        // What connections that did not come back had set is undone, as if they had closed.
        let leases = publisher.containers.values.flatMap { [$0.owner, $0.pausedBy] }.compactMap { $0 }
        let gone = Set(leases).union(connections.focusedBy.map { [$0] } ?? []).subtracting(present)
        for number in gone.sorted() { undo(forConnection: number) }
        store.writeWholeSession()
        logger.notice("restart: took back \(session.engine.slots.count) containers and \(numbers.count) connections (instance \(instance))")
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
                guard let (index, container) = try? container(named: name), client.observers[id] == nil else { continue }
                let observer = Observer(id: id, observation: observation, client: client, container: container)
                publisher.observe(observer)
                var state = session.state(of: index, at: eventLoop.timestamp)
                if let slot = store.previous[name] {
                    var before = state
                    before.phase = slot.phase
                    before.velocity = slot.velocity
                    before.geometry.contentOffset = slot.offset
                    observer.assume(session.value(of: observation, container: index, in: before))
                }
                state = session.state(of: index, at: eventLoop.timestamp)
                observer.offer(session.value(of: observation, container: index, in: state), seq: session.engine.slots[index].seq, time: state.time)
            default:
                client.reply((try? perform(Request(operation: operation), for: client)) ?? ByteBuffer())
            }
        }
        sessionChanged(connection: client)
    }
}

/// What a request changes in the session's document.
enum StoreChange {
    /// Nothing: a read, or a scroll (which changes only its container's slot, written as it
    /// publishes), or a reload (which rewrites the document itself, `apply`).
    case none
    /// The connection's own part: its subscriptions or observations.
    case connection
    /// The containers (and with them, possibly, every connection's subscriptions).
    case session
}

extension Operation {
    var storeChange: StoreChange {
        switch self {
        case .configure, .pause, .resume, .remove, .focus: return .session
        case .subscribe, .unsubscribe, .observe, .unobserve: return .connection
        case .scrollTo, .scrollBy, .get, .devices, .reload, .ping: return .none
        }
    }
}
