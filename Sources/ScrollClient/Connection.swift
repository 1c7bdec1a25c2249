import NIOCore
import NIOPosix
import ScrollModel
import ScrollProtocol
import Synchronization

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
    static let trackingOnly = -1

    let state: Mutex<State>
    init(path: String, timeout: Duration, reconnect: Bool, restoreOffsets: Bool) {
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

    func openChannel(generation: Int) async -> Result<(any Channel, Welcome), ScrollClientError> {
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
    func abandon(_ id: RequestID, with error: ScrollClientError) {
        let pending = state.withLock { state -> Pending? in
            state.queued.removeAll { $0 == id }
            return state.pending.removeValue(forKey: id)
        }
        pending?.timer?.cancel()
        if case .reply(let waiter, _)? = pending?.purpose { waiter.complete(.failure(error)) }
    }

    /// Registers a request the client sends itself and writes it (nothing when disconnected:
    /// a reconnection sends what it needs).
    static func send(_ request: RequestLine, purpose: Purpose, in state: inout State) {
        let id = RequestID(state.takeID())
        send(request, id: id, purpose: purpose, in: &state)
    }

    static func send(_ request: RequestLine, id: RequestID, purpose: Purpose, in state: inout State) {
        guard let channel = state.channel, let line = try? request.encoded(id: id) else { return }
        state.pending[id] = Pending(operation: request.op, purpose: purpose, line: line)
        write(line, to: channel)
    }

    /// Lines go out in the order this is called (under the state's lock): each is handed to the
    /// channel's event loop, which writes them in turn.
    static func write(_ line: [UInt8], to channel: any Channel) {
        channel.eventLoop.execute {
            var buffer = channel.allocator.buffer(capacity: line.count)
            buffer.writeBytes(line)
            channel.writeAndFlush(buffer, promise: nil)
        }
    }
}
