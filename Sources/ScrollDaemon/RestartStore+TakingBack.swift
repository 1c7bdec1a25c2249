import NIOCore
import ScrollModel
import ScrollProtocol
import ScrollSession

/// docs/design.md §16, a restarted daemon: what the previous process kept is taken back as one
/// command (`restore`), the leases and the connections' followers come back with it, and what
/// connections that did not come back had set is undone.
extension RestartStore {
    /// Takes back what a previous process left (`taken`; nil: nothing, or it was refused), with
    /// the numbers of the connections whose sockets came back. Returns those refused: a number
    /// no connection has (``Limits/connectionNumbers``), which the caller closes and forgets.
    func takeBack(_ taken: (snapshot: RestartSnapshot, slots: [SnapshotMemory.Slot?])?, connections offered: [Int]) -> [Int] {
        let connections = core.connections, publisher = core.publisher
        let numbers = offered.filter { Limits.connectionNumbers.contains($0) }
        let refusedNumbers = offered.filter { !Limits.connectionNumbers.contains($0) }
        for number in refusedNumbers {
            core.logger.error("restart: connection \(number) is not taken back (a connection's number is from 1 to 2^53); its socket is closed")
        }
        kept = Set(numbers)
        connections.nextNumber = max(connections.nextNumber, (numbers.max() ?? 0) + 1)
        guard let (snapshot, slots) = taken else {
            sessionLost = !numbers.isEmpty
            writeWholeSession()
            return refusedNumbers
        }
        core.instance = snapshot.instance
        connections.nextNumber = max(connections.nextNumber, snapshot.nextClientNumber)
        for note in snapshot.notes { core.logger.error("restart: \(note)") }
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
        listed = Set(snapshot.containers.map(\.name))
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
        let containers = core.session.engine.slots.count
        core.logger.notice("restart: took back \(containers) container\(containers == 1 ? "" : "s") and \(numbers.count) connection\(numbers.count == 1 ? "" : "s") (instance \(core.instance))")
        return refusedNumbers
    }

    /// A connection taken back is active again: its subscriptions and observations resume, each
    /// subscriber first getting its container's current state (and each observation its value,
    /// with `old` the value last sent before the restart, when it changed), within the limits a
    /// connection's requests meet (docs/design.md, "Limits"): what they refuse is logged, naming
    /// the connection. One whose container did not come back hears `removed`, as when a
    /// container goes (one that waits waits again). A connection whose session was refused is
    /// greeted anew (a new `instance`: it has met a new daemon).
    func resume(_ client: Client) {
        guard let requests = pending.removeValue(forKey: client.number) else {
            if sessionLost { client.reply(core.requests.welcome()) }
            return
        }
        var removed = Set<String>()
        var refusals: [String] = []
        var refused = 0
        for operation in requests {
            if let (name, waits) = operation.followed, core.session.index(of: name) == nil, !waits || listed.contains(name) {
                if removed.insert(name).inserted { client.reply(core.requests.line { ReplyEncoder.removed(container: name, into: &$0) }) }
                guard waits else { continue }
            }
            do throws(ProtocolError) {
                try resume(operation, on: client)
            } catch {
                refused += 1
                if !refusals.contains(error.message) { refusals.append(error.message) }
            }
        }
        if refused > 0 {
            core.logger.error("restart: connection \(client.number): \(refused) of its \(requests.count) stored subscriptions and observations refused: \(refusals.joined(separator: "; "))")
        }
        connectionChanged(client)
    }

    /// One stored request on the connection taken back, as the request would be now; what waited
    /// still waits (its `waiting` reply was sent before the restart).
    private func resume(_ operation: Operation, on client: Client) throws(ProtocolError) {
        guard case let .observe(name, observation, id, wait) = operation, let (index, container) = try? core.container(named: name) else {
            // What a connection keeps over a restart is answered at once (no reload).
            let answer = try core.requests.perform(Request(operation: operation), for: client)
            if case .now(let reply) = answer, let name = operation.followed?.container, core.session.index(of: name) != nil { client.reply(reply) }
            return
        }
        _ = try core.requests.admitObservation(of: name, id: id, waits: wait, for: client, request: nil)
        let observer = Observer(id: id, observation: observation, client: client, container: container, waits: wait)
        core.publisher.observe(observer)
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
    }
}

extension Operation {
    /// The container a stored request follows, and whether it waits for it.
    fileprivate var followed: (container: String, waits: Bool)? {
        switch self {
        case let .subscribe(name, _, wait): return (name, wait)
        case let .observe(name, _, _, wait): return (name, wait)
        default: return nil
        }
    }
}
