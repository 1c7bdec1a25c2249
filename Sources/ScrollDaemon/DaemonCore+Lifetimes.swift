import NIOCore
import ScrollModel
import ScrollProtocol
import ScrollSession

/// docs/design.md §13 and §19 on the daemon's side: observations, containers that live as long as
/// their connection, and what a closing connection undoes.
extension DaemonCore {
    // MARK: Observations

    /// `observe`: the current value at once (`old` null), then every change.
    func observe(_ client: Client, container index: Int, observation: ScrollObservation, id: RequestID) throws(ProtocolError) {
        guard client.observers[id] == nil else {
            throw ProtocolError(.invalidValue, "invalid \"id\": \(id.json) already names an observation on this connection", id: id)
        }
        let feed = feeds[index]
        let observer = Observer(id: id, observation: observation, client: client, feed: feed)
        client.observers[id] = observer
        feed.observers.append(observer)
        let state = currentState(index)
        observer.offer(value(of: observation, in: state, container: index), seq: session.seqs[index], time: state.time)
    }

    /// `unobserve`: ends the observation `id` of this connection.
    func unobserve(_ client: Client, id: RequestID) throws(ProtocolError) {
        guard let observer = client.observers.removeValue(forKey: id) else {
            throw ProtocolError(.invalidValue, "invalid \"id\": \(id.json) names no observation on this connection", id: id)
        }
        observer.feed.observers.removeAll { $0 === observer }
    }

    /// The value of `observation` in a state the container at `index` published.
    func value(of observation: ScrollObservation, in state: ScrollState, container index: Int) -> ObservationValue {
        session.engine.value(of: observation, container: index, in: state)
    }

    /// Offers the states published during the last command to the observers of their
    /// containers. Run after the session's command (the values read the containers' rows).
    func deliverObservations() {
        guard !observed.isEmpty else { return }
        delivering = true
        defer { delivering = false }
        for publication in observed {
            let feed = feeds[publication.container]
            for observer in feed.observers {
                let value = value(of: observer.observation, in: publication.state, container: publication.container)
                observer.offer(value, seq: publication.seq, time: publication.state.time)
            }
        }
        observed.removeAll(keepingCapacity: true)
    }

    // MARK: Lifetimes

    /// The container at `index` is gone from the session: its subscribers and observers hear
    /// `removed` (once per connection) and lose their subscription; feeds after it move down.
    func containerRemoved(at index: Int) {
        let feed = feeds.remove(at: index)
        pending.removeContainer(at: index)
        for later in feeds[index...] { later.container -= 1 }
        // States published before the removal (frames the request ran first) and not yet
        // offered to observers: the removed container's go, the later ones' move down with
        // their feeds.
        observed.removeAll { $0.container == index }
        for pending in observed.indices where observed[pending].container > index { observed[pending].container -= 1 }
        var told = Set<ObjectIdentifier>()
        let message = line { ReplyEncoder.removed(container: feed.name, into: &$0) }
        for client in clients.values where client.follows(feed) {
            client.unsubscribe(feed)
            for (id, observer) in client.observers where observer.feed === feed { client.observers[id] = nil }
            if told.insert(client.id).inserted { client.reply(message) }
        }
        feed.subscriptions.removeAll()
        feed.observers.removeAll()
        owners[feed.name] = nil
        pausedBy[feed.name] = nil
    }

    /// What a closing connection leaves behind is undone (docs/design.md §19): the containers it
    /// owns are removed, its pauses resumed, its focus cleared — each as a request of that
    /// connection, so a recording replays it.
    func undo(for client: Client) {
        undo(forConnection: client.number)
    }

    /// ``undo(for:)`` by the connection's number (also for a connection that did not come back
    /// after a restart, docs/design.md §16).
    func undo(forConnection number: Int) {
        let now = eventLoop.timestamp
        let leftBehind = owners.values.contains(number) || pausedBy.values.contains(number) || focusedBy == number
        for (name, owner) in owners where owner == number {
            guard let index = session.index(of: name) else { continue }
            do {
                try session.perform(.remove(container: name), client: number, at: now) { collect($0) }
                containerRemoved(at: index)
            } catch {
                logger.error("cannot remove \(name), owned by a closed connection: \(error.message)")
            }
        }
        for (name, pauser) in pausedBy where pauser == number {
            pausedBy[name] = nil
            try? session.perform(.resume(container: name), client: number, at: now) { collect($0) }
        }
        if session.focus == nil { focusedBy = nil }
        if focusedBy == number {
            focusedBy = nil
            try? session.perform(.focus(container: nil), client: number, at: now) { collect($0) }
        }
        deliver()
        deliverObservations()
        reschedule()
        // The session's store: the containers changed only if the connection left something.
        if leftBehind { sessionChanged() } else { sessionChanged(closed: number) }
    }
}

extension Client {
    /// Ends the subscription to `feed`'s container, if any.
    func unsubscribe(_ feed: Feed) {
        unsubscribe(from: feed.container)
    }
}
