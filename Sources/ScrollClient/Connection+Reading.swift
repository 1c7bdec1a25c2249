import NIOCore
import NIOPosix
import ScrollModel
import ScrollProtocol
import Synchronization

/// A connection's lines, each handed to whoever waits for it.
extension Connection {
    // MARK: Reading

    /// Hands a line to whoever waits for it (on the channel's event loop).
    func received(_ line: [UInt8], generation: Int) {
        guard let reply = try? ReplyDecoder.decode(line) else { return }
        state.withLock { state in
            guard state.generation == generation, state.ended == nil else { return }
            switch reply {
            case .state(let stateLine):
                Self.note(stateLine, in: &state)
                if let id = stateLine.id {
                    guard let pending = state.pending.removeValue(forKey: id) else { return }
                    pending.timer?.cancel()
                    switch pending.purpose {
                    case .reply(let waiter, _):
                        waiter.complete(.success(Received(reply: reply, line: line)))
                    case .subscribe(let container, let token, _):
                        Self.deliverFirst(stateLine, to: container, token: token, in: &state)
                    case .join(let container, let token):
                        Self.deliverFirst(stateLine, to: container, token: token, in: &state)
                    case .observe, .restore:
                        break
                    }
                } else {
                    Self.broadcast(stateLine, in: &state)
                }
            case .observation(let message):
                guard let id = message.id else { return }
                if case .observe? = state.pending[id]?.purpose { state.pending[id] = nil }
                guard var entry = state.observations[id] else { return }
                let resumed = entry.resuming
                entry.resuming = false
                state.observations[id] = entry
                entry.sink.deliver(message, resumed: resumed)
            case .removed(let container):
                Self.removed(container, in: &state)
            case .error(let code, let message, let id?):
                guard let pending = state.pending.removeValue(forKey: id) else { return }
                pending.timer?.cancel()
                failed(pending, id: id, with: ScrollClientError.fromDaemon(code: code, message: message), in: &state)
            case .welcome:
                // A daemon under systemd that had to refuse its stored session greets the
                // connection anew (docs/protocol.md): a new daemon on the same connection.
                if let welcome = Welcome(line: line), let channel = state.channel {
                    restore(on: channel, welcome: welcome, in: &state)
                }
            default:
                guard let id = reply.id, let pending = state.pending.removeValue(forKey: id) else { return }
                pending.timer?.cancel()
                if case .reply(let waiter, let effect) = pending.purpose {
                    if let effect { Self.apply(effect, in: &state, connection: self) }
                    waiter.complete(.success(Received(reply: reply, line: line)))
                }
            }
        }
    }

    /// The first state of a consumer (`token`), or of every consumer of the container (nil: a
    /// restored subscription).
    static func deliverFirst(_ line: StateLine, to container: String, token: Int?, in state: inout State) {
        guard var hub = state.hubs[container] else { return }
        for (key, var consumer) in hub.consumers where token == nil || key == token {
            consumer.feed.yield(ContainerState(line, resumed: consumer.resuming))
            consumer.joining = false
            consumer.resuming = false
            consumer.after = line.seq
            hub.consumers[key] = consumer
        }
        state.hubs[container] = hub
    }

    static func broadcast(_ line: StateLine, in state: inout State) {
        guard var hub = state.hubs[line.container] else { return }
        for (key, var consumer) in hub.consumers where !consumer.joining && (line.seq > consumer.after || consumer.resuming) {
            consumer.feed.yield(ContainerState(line, resumed: consumer.resuming))
            consumer.resuming = false
            consumer.after = Int.min
            hub.consumers[key] = consumer
        }
        state.hubs[line.container] = hub
    }

    /// A state at rest is where a container re-created after a restart goes back to.
    static func note(_ line: StateLine, in state: inout State) {
        state.descriptions[line.container]?.note(line.state)
    }

    func failed(_ pending: Pending, id: RequestID, with error: ScrollClientError, in state: inout State) {
        switch pending.purpose {
        case .reply(let waiter, _):
            waiter.complete(.failure(error))
        case .subscribe(let container, let token, let attempt):
            if token == nil, error.code == .unknownContainer, state.hubs[container] != nil {
                // A restored subscription whose container is not there (yet): its owner may
                // reconnect after this client. Asked again with backoff (docs/design.md §20's
                // `wait`, which this daemon does not have).
                retry(after: attempt, generation: state.generation) { _, state in
                    guard let hub = state.hubs[container] else { return }
                    Self.send(Self.subscribe(container, rate: hub.rate, wait: false), purpose: .subscribe(container: container, token: nil, attempt: attempt + 1), in: &state)
                }
                return
            }
            guard var hub = state.hubs[container] else { return }
            for (key, consumer) in hub.consumers where token == nil || key == token {
                consumer.feed.finish(error)
                hub.consumers[key] = nil
            }
            state.hubs[container] = hub.consumers.isEmpty && !hub.tracking ? nil : hub
        case .join(let container, let token):
            state.hubs[container]?.consumers.removeValue(forKey: token)?.feed.finish(error)
        case let .observe(observation, restoring, attempt):
            if restoring, error.code == .unknownContainer, state.observations[observation] != nil {
                retry(after: attempt, generation: state.generation) { _, state in
                    guard let entry = state.observations[observation] else { return }
                    Self.send(RequestLine("observe", entry.members), id: observation, purpose: .observe(observation, restoring: true, attempt: attempt + 1), in: &state)
                }
                return
            }
            state.observations.removeValue(forKey: observation)?.sink.finish(error)
        case .restore:
            break
        }
    }

    /// Runs `body` under the lock after the backoff for `attempt`, if the connection is still the
    /// same.
    func retry(after attempt: Int, generation: Int, _ body: @escaping @Sendable (Connection, inout State) -> Void) {
        let delay = min(Self.firstRetry * (1 << min(attempt, 10)), Self.lastRetry)
        MultiThreadedEventLoopGroup.singleton.next().scheduleTask(in: .nanoseconds(delay.nanoseconds)) { [weak self] in
            guard let self else { return }
            self.state.withLock { state in
                guard state.generation == generation, state.ended == nil, state.channel != nil else { return }
                body(self, &state)
            }
        }
    }

    /// A container removed ends its consumers (the daemon says so to subscribers, and drops its
    /// observations without a word), and is not created again by a reconnection.
    static func removed(_ container: String, in state: inout State) {
        if let hub = state.hubs.removeValue(forKey: container) {
            for consumer in hub.consumers.values { consumer.feed.finish(.removed(container: container)) }
        }
        for (id, entry) in state.observations where entry.container == container {
            state.observations[id] = nil
            entry.sink.finish(.removed(container: container))
        }
        forget(container, in: &state)
    }

    static func forget(_ container: String, in state: inout State) {
        state.descriptions[container] = nil
        state.order.removeAll { $0 == container }
        state.paused.remove(container)
        if state.focus == .some(container) { state.focus = nil }
        if state.hubs[container]?.consumers.isEmpty == true { state.hubs[container] = nil }
        state.hubs[container]?.tracking = false
    }

    /// What a reconnection must know of a request that succeeded.
    static func apply(_ effect: Effect, in state: inout State, connection: Connection) {
        switch effect {
        case let .configure(container, settings, owned):
            if state.descriptions[container] == nil {
                state.descriptions[container] = ContainerDescription(owned: owned)
                state.order.append(container)
            }
            state.descriptions[container]?.apply(settings)
            guard connection.reconnect, connection.restoreOffsets else { return }
            var hub = state.hubs[container] ?? Hub()
            guard !hub.tracking else { return }
            hub.tracking = true
            if hub.consumers.isEmpty {
                hub.rate = trackingRate
                state.hubs[container] = hub
                send(subscribe(container, rate: trackingRate, wait: false), purpose: .subscribe(container: container, token: trackingOnly, attempt: 0), in: &state)
            } else {
                state.hubs[container] = hub
            }
        case let .scroll(container, position):
            state.descriptions[container]?.aim(at: position)
        case .pause(let container):
            state.paused.insert(container)
        case .resume(let container):
            state.paused.remove(container)
        case .focus(let container):
            state.focus = .some(container)
        case .remove(let container):
            forget(container, in: &state)
        }
    }
}
