import NIOCore
import NIOPosix
import ScrollModel
import ScrollProtocol
import Synchronization

/// A connection ending, coming back and being put back where it was (docs/design.md §20).
extension Connection {
    // MARK: The connection's life

    /// The connection ended (on its event loop). Requests waiting fail; without `reconnect`
    /// every sequence ends with the reason, with it they wait for the new connection.
    func closed(generation: Int, reason: ScrollClientError) {
        /// nil: not this connection's channel (an attempt that failed, an older one).
        let reconnecting = state.withLock { state -> Bool? in
            guard state.generation == generation, state.channel != nil, state.ended == nil else { return nil }
            state.channel = nil
            let failure = ScrollClientError.disconnected("\(reason.description); \(reconnect ? "reconnecting" : "not reconnecting")")
            for (_, pending) in state.pending {
                pending.timer?.cancel()
                if case .reply(let waiter, _) = pending.purpose { waiter.complete(.failure(reconnect ? failure : reason)) }
            }
            state.pending = [:]
            state.queued = []
            guard reconnect else { return false }
            for (container, var hub) in state.hubs {
                for key in hub.consumers.keys {
                    hub.consumers[key]?.resuming = true
                    hub.consumers[key]?.joining = false
                }
                state.hubs[container] = hub
            }
            for id in state.observations.keys { state.observations[id]?.resuming = true }
            return true
        }
        switch reconnecting {
        case true?: startReconnecting()
        case false?: close(reason)
        case nil: break
        }
    }

    /// A channel that closed between its welcome and being attached told nobody (its close was
    /// not this connection's yet): tell now.
    func closedBeforeAttached(_ channel: any Channel, generation: Int) {
        if !channel.isActive {
            closed(generation: generation, reason: .disconnected("scrolld closed the connection (\(path))"))
        }
    }

    func startReconnecting() {
        let task = Task { [weak self] in
            var delay = Self.firstRetry
            while !Task.isCancelled {
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, Self.lastRetry)
                guard let self, !Task.isCancelled else { return }
                let generation = self.state.withLock { state -> Int in
                    state.generation += 1
                    return state.generation
                }
                guard case .success(let (channel, welcome)) = await self.openChannel(generation: generation) else { continue }
                let attached = self.state.withLock { state -> Bool in
                    guard state.ended == nil, state.generation == generation else { return false }
                    state.channel = channel
                    state.reconnecting = nil
                    self.restore(on: channel, welcome: welcome, in: &state)
                    return true
                }
                if attached {
                    self.closedBeforeAttached(channel, generation: generation)
                } else {
                    channel.close(promise: nil)
                }
                return
            }
        }
        state.withLock { state in
            if state.ended == nil { state.reconnecting = task } else { task.cancel() }
        }
    }

    /// The lines that bring a new connection where the old one was (docs/design.md §20): the
    /// containers this client configured, from their current description (all of them for a new
    /// daemon — the welcome's `instance` tells — else only the owned ones, which went with the
    /// old connection), each re-created one put back at its last resting offset; the pauses and
    /// the focus (undone when a connection closes; a focus only when nobody holds it now);
    /// then the subscriptions and observations, whose first states and messages are marked
    /// resumed; then the requests made meanwhile.
    func restore(on channel: any Channel, welcome: Welcome, in state: inout State) {
        let newDaemon = welcome.instance == nil || welcome.instance != state.welcome.instance
        state.welcome = welcome
        for container in state.order {
            guard let description = state.descriptions[container], newDaemon || description.owned else { continue }
            let recreated = !welcome.containers.contains(container)
            for members in description.configures(owned: description.owned) {
                Self.send(RequestLine("configure", [("container", .string(container))] + members), purpose: .restore, in: &state)
            }
            if recreated, restoreOffsets, !description.following, let offset = description.resting {
                let members: [(String, ProtocolValue)] = [
                    ("container", .string(container)), ("x", .double(offset.x)), ("y", .double(offset.y)), ("animation", .string("none")),
                ]
                Self.send(RequestLine("scrollTo", members), purpose: .restore, in: &state)
            }
        }
        for container in state.paused.sorted() {
            Self.send(RequestLine("pause", [("container", .string(container))]), purpose: .restore, in: &state)
        }
        if case .some(let focus?) = state.focus, welcome.focus == nil {
            Self.send(RequestLine("focus", [("container", .string(focus))]), purpose: .restore, in: &state)
        }
        let wait = welcome.features.contains("follow")
        for container in state.hubs.keys.sorted() {
            let rate = state.hubs[container]?.rate
            Self.send(Self.subscribe(container, rate: rate, wait: wait), purpose: .subscribe(container: container, token: nil, attempt: 0), in: &state)
        }
        for (id, entry) in state.observations {
            let members = entry.members + (wait ? [("wait", .bool(true))] : [])
            Self.send(RequestLine("observe", members), id: id, purpose: .observe(id, restoring: true, attempt: 0), in: &state)
        }
        for id in state.queued {
            guard let pending = state.pending[id] else { continue }
            Self.write(pending.line, to: channel)
        }
        state.queued = []
    }

    /// Ends the connection for good: requests waiting fail and sequences end with `reason`.
    func close(_ reason: ScrollClientError) {
        state.withLock { state in
            guard state.ended == nil else { return }
            state.ended = reason
            state.reconnecting?.cancel()
            state.reconnecting = nil
            for (_, pending) in state.pending {
                pending.timer?.cancel()
                if case .reply(let waiter, _) = pending.purpose { waiter.complete(.failure(reason)) }
            }
            state.pending = [:]
            state.queued = []
            for hub in state.hubs.values {
                for consumer in hub.consumers.values { consumer.feed.finish(reason) }
            }
            state.hubs = [:]
            for entry in state.observations.values { entry.sink.finish(reason) }
            state.observations = [:]
            if let channel = state.channel {
                channel.eventLoop.execute { channel.close(promise: nil) }
            }
            state.channel = nil
        }
    }
}
