import NIOCore
import ScrollModel
import ScrollProtocol
import ScrollSession

/// docs/design.md §16, a restarted daemon: what the previous process kept is taken back as one
/// command (`restore`), the leases and the connections' followers come back with it, and what
/// connections that did not come back had set is undone.
extension RestartStore {
    /// Takes back what a previous process left (`taken`; nil: nothing, or it was refused), with
    /// the numbers of the connections whose sockets came back.
    func takeBack(_ taken: (snapshot: RestartSnapshot, slots: [SnapshotMemory.Slot?])?, connections numbers: [Int]) {
        let connections = core.connections, publisher = core.publisher
        kept = Set(numbers)
        connections.nextNumber = max(connections.nextNumber, (numbers.max() ?? 0) + 1)
        guard let (snapshot, slots) = taken else {
            sessionLost = !numbers.isEmpty
            writeWholeSession()
            return
        }
        core.instance = snapshot.instance
        connections.nextNumber = max(connections.nextNumber, snapshot.nextClientNumber)
        let restoration = Restoration(containers: snapshot.restoredContainers, focus: snapshot.focus)
        let refused = (try? core.execute(.restore(restoration, at: core.eventLoop.timestamp)))?.refused ?? []
        for (name, problem) in refused { core.logger.error("restart: container \(name) not taken back: \(problem)") }
        for stored in snapshot.containers {
            guard let (_, container) = try? core.container(named: stored.name) else { continue }
            // A container the configuration file names now is the file's (as after a reload).
            if let owner = stored.owner, !core.session.fileContainers.contains(stored.name) { container.owner = owner }
            container.pausedBy = stored.pausedBy
        }
        connections.focusedBy = core.session.focus == nil ? nil : snapshot.focusedBy
        for (container, slot) in zip(snapshot.containers, slots) { previous[container.name] = slot }
        let present = Set(numbers)
        for connection in snapshot.connections where present.contains(connection.number) {
            pending[connection.number] = connection.requests
        }
        core.finish()
        // What connections that did not come back had set is undone, as if they had closed
        // (each undo costs what that connection held: the leases are booked by connection).
        connections.noteLeases(recordedOn: publisher.containers.values)
        let gone = Set(connections.held.keys).union(connections.focusedBy.map { [$0] } ?? []).subtracting(present)
        for number in gone.sorted() { core.requests.undo(forConnection: number) }
        writeWholeSession()
        core.logger.notice("restart: took back \(core.session.engine.slots.count) containers and \(numbers.count) connections (instance \(core.instance))")
    }

    /// A connection taken back is active again: its subscriptions and observations resume, each
    /// subscriber first getting its container's current state (and each observation its value,
    /// with `old` the value last sent before the restart, when it changed). A connection whose
    /// session was refused is greeted anew (a new `instance`: it has met a new daemon).
    func resume(_ client: Client) {
        guard let requests = pending.removeValue(forKey: client.number) else {
            if sessionLost { client.reply(core.requests.welcome()) }
            return
        }
        let publisher = core.publisher
        for operation in requests {
            switch operation {
            case let .observe(name, observation, id, wait):
                guard let (index, container) = try? core.container(named: name), client.observers[id] == nil else {
                    // One that waited still waits (docs/design.md §20); its `waiting` reply
                    // was sent before the restart.
                    if wait { _ = try? core.requests.perform(Request(operation: operation), for: client) }
                    continue
                }
                let observer = Observer(id: id, observation: observation, client: client, container: container, waits: wait)
                publisher.observe(observer)
                var state = core.session.state(of: index, at: core.eventLoop.timestamp)
                if let slot = previous[name] {
                    var before = state
                    before.phase = slot.phase
                    before.velocity = slot.velocity
                    before.geometry.contentOffset = slot.offset
                    observer.assume(core.session.value(of: observation, container: index, in: before))
                }
                state = core.session.state(of: index, at: core.eventLoop.timestamp)
                observer.offer(core.session.value(of: observation, container: index, in: state), seq: core.session.engine.slots[index].seq, time: state.time)
            default:
                // What a connection keeps over a restart is answered at once (no reload).
                if case .now(let reply)? = try? core.requests.perform(Request(operation: operation), for: client) { client.reply(reply) }
            }
        }
        connectionChanged(client)
    }
}
