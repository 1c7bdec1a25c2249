import NIOCore
import NIOPosix
import ScrollModel
import ScrollProtocol
import Synchronization

/// A reply line, decoded, with its bytes (for what the decoder does not keep, such as a
/// `devices` reply's `focus`).
struct Received: Sendable {
    var reply: Reply
    var line: [UInt8]
}

/// An observation's consumer, whatever the type of its values.
protocol ObservationSink: Sendable {
    func deliver(_ message: ObservationMessage, resumed: Bool)
    func finish(_ error: ScrollClientError?)
}

/// Decodes an observation's values into `Value` and keeps the last one, the next message's
/// `old` (the daemon's `old` is the value it last sent, which this consumer received; after a
/// reconnection it is the value this consumer had before).
final class TypedObservationSink<Value: Hashable & Sendable>: ObservationSink {
    let feed: Feed<Observation<Value>>
    private let decode: @Sendable (ProtocolValue) -> Value?
    private let last = Mutex<Value?>(nil)

    init(_ key: ObservedValue<Value>) {
        decode = key.decode
        // A consumer more than Feed.backlog behind: the newest replaces the last one waiting,
        // keeping its `old`, and both go when that makes no change (the daemon's own rule for a
        // slow client, docs/design.md §13).
        feed = Feed { waiting, newest in
            var merged = newest
            merged.old = waiting.old
            merged.resumed = waiting.resumed || newest.resumed
            return merged.old == merged.new && !merged.resumed ? nil : merged
        }
    }

    func deliver(_ message: ObservationMessage, resumed: Bool) {
        guard let value = decode(message.new) else {
            feed.finish(.protocolViolation("scrolld sent a value of \(message.of) this client cannot read: \(message.new)"))
            return
        }
        let old = last.withLock { last -> Value? in
            defer { last = value }
            return last
        }
        feed.yield(Observation(old: old, new: value, seq: message.seq, time: message.time, resumed: resumed))
    }

    func finish(_ error: ScrollClientError?) {
        feed.finish(error)
    }
}

/// The connection behind a ``ScrollClient``: who waits for which reply, which consumer a state
/// or an observation goes to, and, reconnecting, what to send again (docs/design.md §20). Lines
/// arrive on a SwiftNIO event loop and are handed over at once; nothing here blocks.
final class Connection: Sendable {
    let path: String
    let timeout: Duration
    let reconnect: Bool
    let restoreOffsets: Bool
    /// The rate of the subscription a reconnecting client keeps to each container it
    /// configured, to know its resting offset: latest wins, so the state it comes to rest in
    /// always arrives.
    static let trackingRate = 5.0
    /// The first retry of a reconnection, doubling up to the last.
    static let firstRetry = Duration.milliseconds(50), lastRetry = Duration.seconds(2)
    /// The `token` of a subscribe whose state is no consumer's.
    private static let trackingOnly = -1

    private let state: Mutex<State>

    private struct Pending {
        var operation: String
        var purpose: Purpose
        var line: [UInt8]
        var timer: Scheduled<Void>?
    }

    private enum Purpose {
        /// An app's request: its caller waits; `effect` is what a reconnection must know of it.
        case reply(OneShot<Received>, effect: Effect?)
        /// A `subscribe`: its state goes to the consumer `token`, or (nil) to every consumer of
        /// the container (a restored subscription), or (``trackingOnly``) to none (the
        /// subscription kept for the resting offset). `attempt` counts the retries of a restored
        /// one whose container does not exist (yet).
        case subscribe(container: String, token: Int?, attempt: Int)
        /// A `get` that gives a consumer joining a subscription its first state.
        case join(container: String, token: Int)
        /// An `observe`: its first message is the reply. `restoring`: sent again after a
        /// reconnection, and `attempt` counts its retries while its container does not exist.
        case observe(RequestID, restoring: Bool, attempt: Int)
        /// Sent by the client itself; the reply changes nothing.
        case restore
    }

    /// What a reconnection must know of a request that succeeded.
    enum Effect: Sendable {
        case configure(String, ContainerSettings, owned: Bool)
        case pause(String)
        case resume(String)
        case focus(String?)
        case remove(String)
    }

    private struct Consumer {
        let feed: Feed<ContainerState>
        var rate: Double?
        /// Its first state has not come yet: broadcasts are not for it (a consumer joining
        /// gets its first state from a `get`).
        var joining = false
        /// States up to this `seq` are older than its first one.
        var after = Int.min
        /// The next state it gets is the first after a reconnection.
        var resuming = false
    }

    /// The connection's one subscription to a container, shared by every consumer of it.
    private struct Hub {
        var consumers: [Int: Consumer] = [:]
        /// The rate it is subscribed at.
        var rate: Double?
        /// Kept for the resting offset, with or without consumers.
        var tracking = false
    }

    private struct ObservationEntry {
        var container: String
        var members: [(String, ProtocolValue)]
        var sink: any ObservationSink
        var resuming = false
    }

    private struct State {
        var channel: (any Channel)?
        /// The connection attempt the channel belongs to: lines and closes of older ones are
        /// ignored.
        var generation = 0
        var welcome: Welcome
        var nextID = 1
        var pending: [RequestID: Pending] = [:]
        /// Requests made while reconnecting, sent once the connection is back.
        var queued: [RequestID] = []
        var hubs: [String: Hub] = [:]
        var observations: [RequestID: ObservationEntry] = [:]
        var descriptions: [String: ContainerDescription] = [:]
        /// The containers of `descriptions`, in the order they were first configured (a parent
        /// before its children).
        var order: [String] = []
        var paused: Set<String> = []
        /// The focus this client gave last, if it gave one (`.some(nil)`: it cleared it).
        var focus: String??
        var ended: ScrollClientError?
        var reconnecting: Task<Void, Never>?

        mutating func takeID() -> Int {
            defer { nextID += 1 }
            return nextID
        }
    }

    private init(path: String, timeout: Duration, reconnect: Bool, restoreOffsets: Bool) {
        self.path = path
        self.timeout = timeout
        self.reconnect = reconnect
        self.restoreOffsets = restoreOffsets
        state = Mutex(State(welcome: Welcome(protocol: 0, server: "", containers: [])))
    }

    /// Connects and reads the welcome (docs/design.md §7), within `timeout`.
    static func open(path: String, timeout: Duration, reconnect: Bool, restoreOffsets: Bool) async throws(ScrollClientError) -> Connection {
        let connection = Connection(path: path, timeout: timeout, reconnect: reconnect, restoreOffsets: restoreOffsets)
        let (channel, welcome) = try await connection.openChannel(generation: 0).get()
        connection.state.withLock { state in
            state.channel = channel
            state.welcome = welcome
        }
        connection.closedBeforeAttached(channel, generation: 0)
        return connection
    }

    private func openChannel(generation: Int) async -> Result<(any Channel, Welcome), ScrollClientError> {
        await LineChannel.open(
            path: path, timeout: timeout,
            onLine: { [weak self] line in self?.received(line, generation: generation) },
            onClose: { [weak self] reason in self?.closed(generation: generation, reason: reason) }
        )
    }

    var welcome: Welcome { state.withLock { $0.welcome } }

    var isConnected: Bool { state.withLock { $0.channel != nil } }

    /// What the connection holds for its consumers and requests (for the tests: none of it may
    /// outlive what it was for).
    var bookkeeping: (subscriptions: Int, consumers: Int, observations: Int, pending: Int) {
        state.withLock { state in
            (state.hubs.count, state.hubs.values.reduce(0) { $0 + $1.consumers.count }, state.observations.count, state.pending.count)
        }
    }

    // MARK: Requests

    /// Sends `request` and waits for its reply, up to `timeout` (reconnecting, the wait for the
    /// connection counts), or until the task is cancelled.
    func request(_ request: RequestLine, effect: Effect? = nil) async throws(ScrollClientError) -> Received {
        let operation = request.op
        if Task.isCancelled { throw .cancelled(operation: operation) }
        let waiter = OneShot<Received>()
        let id = try state.withLock { state throws(ScrollClientError) -> RequestID in
            if let ended = state.ended { throw ended }
            let id = RequestID(state.takeID())
            let line = try request.encoded(id: id)
            let expired = ScrollClientError.timeout(operation: operation, seconds: DaemonSocket.seconds(timeout))
            var pending = Pending(operation: operation, purpose: .reply(waiter, effect: effect), line: line)
            pending.timer = MultiThreadedEventLoopGroup.singleton.next().scheduleTask(in: .nanoseconds(timeout.nanoseconds)) { [weak self] in
                self?.abandon(id, with: expired)
            }
            state.pending[id] = pending
            if let channel = state.channel {
                Self.write(line, to: channel)
            } else {
                state.queued.append(id)
            }
            return id
        }
        let result = await withTaskCancellationHandler {
            await waiter.wait()
        } onCancel: {
            self.abandon(id, with: .cancelled(operation: operation))
        }
        return try result.get()
    }

    /// Gives up waiting for `id`'s reply (its timeout, its task's cancellation). A reply that
    /// comes later is nobody's.
    private func abandon(_ id: RequestID, with error: ScrollClientError) {
        let pending = state.withLock { state -> Pending? in
            state.queued.removeAll { $0 == id }
            return state.pending.removeValue(forKey: id)
        }
        pending?.timer?.cancel()
        if case .reply(let waiter, _)? = pending?.purpose { waiter.complete(.failure(error)) }
    }

    /// Registers a request the client sends itself and writes it (nothing when disconnected:
    /// a reconnection sends what it needs).
    private static func send(_ request: RequestLine, purpose: Purpose, in state: inout State) {
        let id = RequestID(state.takeID())
        send(request, id: id, purpose: purpose, in: &state)
    }

    private static func send(_ request: RequestLine, id: RequestID, purpose: Purpose, in state: inout State) {
        guard let channel = state.channel, let line = try? request.encoded(id: id) else { return }
        state.pending[id] = Pending(operation: request.op, purpose: purpose, line: line)
        write(line, to: channel)
    }

    /// Lines go out in the order this is called (under the state's lock): each is handed to the
    /// channel's event loop, which writes them in turn.
    private static func write(_ line: [UInt8], to channel: any Channel) {
        channel.eventLoop.execute {
            var buffer = channel.allocator.buffer(capacity: line.count)
            buffer.writeBytes(line)
            channel.writeAndFlush(buffer, promise: nil)
        }
    }

    // MARK: Streams

    /// A consumer of `container`'s states. The first one subscribes; the next ones share that
    /// subscription, each getting the current state first (a `get`), then the same broadcasts.
    func states(of container: String, rate: Double?) -> Feed<ContainerState> {
        let feed = Feed<ContainerState>()
        let token = state.withLock { state -> Int? in
            if let ended = state.ended {
                feed.finish(ended)
                return nil
            }
            if let rate {
                let request = RequestLine("subscribe", [("rate", .double(rate))])
                do throws(ScrollClientError) {
                    _ = try request.encoded(id: nil)
                } catch {
                    feed.finish(error)
                    return nil
                }
            }
            var hub = state.hubs[container] ?? Hub()
            if let other = hub.consumers.values.first, other.rate != rate {
                feed.finish(.daemon(
                    code: .invalidValue,
                    message: "\"\(container)\" is already followed on this client at rate \(other.rate.map { "\($0)" } ?? "nil") "
                        + "(one subscription per container and connection); use the same rate, or another ScrollClient"
                ))
                return nil
            }
            let token = state.takeID()
            let joins = !hub.consumers.isEmpty
            hub.consumers[token] = Consumer(feed: feed, rate: rate, joining: joins)
            hub.rate = rate
            state.hubs[container] = hub
            if joins {
                Self.send(RequestLine("get", [("container", .string(container))]), purpose: .join(container: container, token: token), in: &state)
            } else {
                Self.send(Self.subscribe(container, rate: rate, wait: false), purpose: .subscribe(container: container, token: token, attempt: 0), in: &state)
            }
            return token
        }
        if let token {
            feed.onRelease { [weak self] in self?.release(container, token: token) }
        }
        return feed
    }

    private static func subscribe(_ container: String, rate: Double?, wait: Bool) -> RequestLine {
        var members: [(String, ProtocolValue)] = [("container", .string(container))]
        if let rate { members.append(("rate", .double(rate))) }
        if wait { members.append(("wait", .bool(true))) }
        return RequestLine("subscribe", members)
    }

    /// A consumer is gone: the last one unsubscribes (or, for a container whose resting offset
    /// is tracked, goes back to the tracking rate).
    private func release(_ container: String, token: Int) {
        state.withLock { state in
            guard state.ended == nil, var hub = state.hubs[container], hub.consumers.removeValue(forKey: token) != nil else { return }
            guard hub.consumers.isEmpty else {
                state.hubs[container] = hub
                return
            }
            if hub.tracking {
                if hub.rate != Self.trackingRate {
                    hub.rate = Self.trackingRate
                    Self.send(Self.subscribe(container, rate: Self.trackingRate, wait: false), purpose: .subscribe(container: container, token: Self.trackingOnly, attempt: 0), in: &state)
                }
                state.hubs[container] = hub
            } else {
                state.hubs[container] = nil
                Self.send(RequestLine("unsubscribe", [("container", .string(container))]), purpose: .restore, in: &state)
            }
        }
    }

    /// An observation of `container`, with an id of its own (`"swift-N"`).
    func observe(_ container: String, _ sink: any ObservationSink, observation: ScrollObservation) {
        let id = state.withLock { state -> RequestID? in
            if let ended = state.ended {
                sink.finish(ended)
                return nil
            }
            let id = RequestID("swift-\(state.takeID())")
            let members: [(String, ProtocolValue)] = [("container", .string(container))] + observation.members
            do throws(ScrollClientError) {
                _ = try RequestLine("observe", members).encoded(id: id)
            } catch {
                sink.finish(error)
                return nil
            }
            state.observations[id] = ObservationEntry(container: container, members: members, sink: sink)
            Self.send(RequestLine("observe", members), id: id, purpose: .observe(id, restoring: false, attempt: 0), in: &state)
            return id
        }
        if let id, let sink = sink as? any ReleasableSink {
            sink.onRelease { [weak self] in self?.unobserve(id) }
        }
    }

    private func unobserve(_ id: RequestID) {
        state.withLock { state in
            guard state.ended == nil, state.observations.removeValue(forKey: id) != nil else { return }
            state.pending[id] = nil
            guard let channel = state.channel, let line = try? RequestLine("unobserve").encoded(id: id) else { return }
            // The reply (`ok` with the observation's id) is nobody's.
            Self.write(line, to: channel)
        }
    }

    // MARK: Reading

    /// Hands a line to whoever waits for it (on the channel's event loop).
    private func received(_ line: [UInt8], generation: Int) {
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
    private static func deliverFirst(_ line: StateLine, to container: String, token: Int?, in state: inout State) {
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

    private static func broadcast(_ line: StateLine, in state: inout State) {
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
    private static func note(_ line: StateLine, in state: inout State) {
        guard line.state.phase == .idle, state.descriptions[line.container] != nil else { return }
        state.descriptions[line.container]?.resting = line.state.geometry.contentOffset
    }

    private func failed(_ pending: Pending, id: RequestID, with error: ScrollClientError, in state: inout State) {
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
    private func retry(after attempt: Int, generation: Int, _ body: @escaping @Sendable (Connection, inout State) -> Void) {
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
    private static func removed(_ container: String, in state: inout State) {
        if let hub = state.hubs.removeValue(forKey: container) {
            for consumer in hub.consumers.values { consumer.feed.finish(.removed(container: container)) }
        }
        for (id, entry) in state.observations where entry.container == container {
            state.observations[id] = nil
            entry.sink.finish(.removed(container: container))
        }
        forget(container, in: &state)
    }

    private static func forget(_ container: String, in state: inout State) {
        state.descriptions[container] = nil
        state.order.removeAll { $0 == container }
        state.paused.remove(container)
        if state.focus == .some(container) { state.focus = nil }
        if state.hubs[container]?.consumers.isEmpty == true { state.hubs[container] = nil }
        state.hubs[container]?.tracking = false
    }

    /// What a reconnection must know of a request that succeeded.
    private static func apply(_ effect: Effect, in state: inout State, connection: Connection) {
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

    // MARK: The connection's life

    /// The connection ended (on its event loop). Requests waiting fail; without `reconnect`
    /// every sequence ends with the reason, with it they wait for the new connection.
    private func closed(generation: Int, reason: ScrollClientError) {
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
    private func closedBeforeAttached(_ channel: any Channel, generation: Int) {
        if !channel.isActive {
            closed(generation: generation, reason: .disconnected("scrolld closed the connection (\(path))"))
        }
    }

    private func startReconnecting() {
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
    private func restore(on channel: any Channel, welcome: Welcome, in state: inout State) {
        let newDaemon = welcome.instance == nil || welcome.instance != state.welcome.instance
        state.welcome = welcome
        for container in state.order {
            guard let description = state.descriptions[container], newDaemon || description.owned else { continue }
            let recreated = !welcome.containers.contains(container)
            for members in description.configures(owned: description.owned) {
                Self.send(RequestLine("configure", [("container", .string(container))] + members), purpose: .restore, in: &state)
            }
            if recreated, restoreOffsets, let offset = description.resting {
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

/// A sink whose consumer can go away on its own.
protocol ReleasableSink: Sendable {
    func onRelease(_ body: @escaping @Sendable () -> Void)
}

extension TypedObservationSink: ReleasableSink {
    func onRelease(_ body: @escaping @Sendable () -> Void) {
        feed.onRelease(body)
    }
}
