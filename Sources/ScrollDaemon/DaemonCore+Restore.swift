import NIOCore
import ScrollModel
import ScrollProtocol
import ScrollSession

/// docs/design.md §16 on the daemon's side: keeping the session current in its store, and taking it
/// back after a restart.
extension DaemonCore {
    // MARK: Keeping

    /// Notes a change of containers, connections, subscriptions or observations for the
    /// session's document (never a publication: those write their slot in place).
    ///
    /// The document is written once, after the work the loop is doing now (a burst of requests,
    /// a thousand clients connecting) — in the same turn of the loop, before it waits again —
    /// not once per change: each write copies the whole document, which with a thousand
    /// connections made every change cost the loop O(connections).
    func sessionChanged() {
        guard let store else { return }
        store.wholeSessionChanged = true
        scheduleSessionWrite(store)
    }

    /// Only `client`'s subscriptions or observations changed: only its part of the document is
    /// encoded anew.
    func sessionChanged(connection client: Client) {
        guard let store else { return }
        store.changedConnections[client.number] = client
        scheduleSessionWrite(store)
    }

    /// Connection `number` closed leaving nothing behind: its part leaves the document.
    func sessionChanged(closed number: Int) {
        guard let store else { return }
        store.changedConnections[number] = nil
        store.closedConnections.insert(number)
        scheduleSessionWrite(store)
    }

    /// Writes the whole session's document now, not at the end of the loop's turn: at start,
    /// so the store holds this process' session before anything else runs.
    private func writeWholeSession() {
        guard let store else { return }
        store.wholeSessionChanged = true
        writeSession()
    }

    private func scheduleSessionWrite(_ store: SessionStore) {
        guard !store.writePending else { return }
        store.writePending = true
        eventLoop.assumeIsolated().execute { [self] in writeSession() }
    }

    /// Writes the session's document (and, after a change of containers, every container's
    /// slot) to the store.
    private func writeSession() {
        guard let store else { return }
        store.writePending = false
        let whole = store.wholeSessionChanged
        guard whole || !store.changedConnections.isEmpty || !store.closedConnections.isEmpty else { return }
        if whole {
            store.containersDocument = nil
            store.connectionDocuments.removeAll()
            for client in connections.inOrder {
                store.connectionDocuments.set(client.number, storedConnection(client).encoded())
            }
        } else {
            for number in store.closedConnections { store.connectionDocuments.set(number, nil) }
            for (number, client) in store.changedConnections {
                let open = connections.isOpen(client)
                store.connectionDocuments.set(number, open ? storedConnection(client).encoded() : nil)
            }
        }
        store.wholeSessionChanged = false
        store.changedConnections.removeAll(keepingCapacity: true)
        store.closedConnections.removeAll(keepingCapacity: true)
        let containers: [UInt8]
        if let cached = store.containersDocument {
            containers = cached
        } else {
            var bytes: [UInt8] = []
            for (index, container) in storedContainers.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                container.json.encode(into: &bytes)
            }
            containers = bytes
            store.containersDocument = bytes
            store.nameHashes = session.names.map(SnapshotMemory.nameHash)
        }
        let connectionsDocument = store.connectionDocuments.joined
        let document = SessionSnapshot.document(
            instance: instance, nextClientNumber: connections.nextNumber, focus: session.focus, focusedBy: connections.focusedBy,
            containers: containers, connections: connectionsDocument
        )
        // The slots change with the containers (and are written anew when the memory grows,
        // which formats it); a connection's change leaves them as its publications wrote them.
        var slots: [SnapshotMemory.Slot] = []
        if whole || document.count + 8 > store.memory.documentCapacity {
            for (index, slot) in session.engine.slots.enumerated() {
                let state = slot.container.state
                slots.append(SnapshotMemory.Slot(seq: slot.seq, time: state.time, offset: state.contentOffset, velocity: state.velocity, phase: state.phase, nameHash: store.nameHashes[index]))
            }
        }
        if !store.memory.write(document: document, slots: slots) {
            logger.error("the session no longer fits in its store: a restart now would lose what changed since")
        }
    }

    /// The session as it stands.
    package var snapshot: SessionSnapshot {
        SessionSnapshot(
            instance: instance, nextClientNumber: connections.nextNumber, focus: session.focus, focusedBy: connections.focusedBy,
            containers: storedContainers, connections: connections.inOrder.map(storedConnection)
        )
    }

    private var storedContainers: [SessionSnapshot.Container] {
        let settings = session.containerSettings
        return session.engine.slots.map { slot in
            let name = slot.container.name
            let leases = publisher[slot.id]
            return SessionSnapshot.Container(
                name: name, settings: settings[name] ?? [], seq: slot.seq,
                offset: slot.container.state.contentOffset, paused: slot.isPaused,
                pausedBy: leases?.pausedBy, owner: leases?.owner
            )
        }
    }

    /// A connection's subscriptions and observations, as the requests that make them.
    private func storedConnection(_ client: Client) -> SessionSnapshot.Connection {
        var requests: [Operation] = []
        for subscription in client.subscriptions {
            let rate = subscription.interval.map { 1e9 / Double($0.nanoseconds) }
            requests.append(.subscribe(container: subscription.container.name, rate: rate))
        }
        for slot in session.engine.slots {
            for observer in publisher[slot.id]?.observers ?? [] where observer.client === client {
                requests.append(.observe(container: slot.container.name, observation: observer.observation, id: observer.id))
            }
        }
        return SessionSnapshot.Connection(number: client.number, requests: requests)
    }

    /// A connection was accepted: its socket goes to the store (one taken back is there already).
    ///
    /// The document does not change: a connection that subscribes or observes nothing has
    /// nothing to take back but its socket.
    func storeConnection(_ client: Client) {
        guard let store, store.kept.insert(client.number).inserted else { return }
        store.connections?.keep(client.channel, descriptor: client.socket?.fd, number: client.number)
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
        connections.nextNumber = max(connections.nextNumber, (numbers.max() ?? 0) + 1)
        guard let (snapshot, slots) = taken else {
            store.sessionLost = !numbers.isEmpty
            writeWholeSession()
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
        writeWholeSession()
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
