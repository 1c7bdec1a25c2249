import ScrollModel
import ScrollPOSIX
import ScrollProtocol
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A Swift app's connection to scrolld (docs/design.md §7, §12, §13, §19): requests as async
/// throwing methods, a container's states and an observation's changes as `AsyncSequence`s of
/// ScrollProtocol's typed values.
///
/// ```swift
/// let scrolld = try await ScrollClient.connect()
/// try await scrolld.configure("list", ["containerSize": .object([("width", .integer(400)), ("height", .integer(600))])])
/// for try await state in scrolld.states(of: "list") { draw(state.state) }
/// ```
///
/// One thread of its own reads the socket and hands each line to whoever waits for it: the
/// request with its `id`, the subscription of its container, the observation of its `id`.
/// When the connection ends every request waiting and every sequence ends with the reason.
public final class ScrollClient: Sendable {
    /// The daemon's greeting: its version, containers, features and instance (docs/design.md §19).
    public let welcome: WelcomeLine
    /// How long a request waits for its reply (``ScrollClientError/timeout(operation:seconds:)``
    /// after that): a request sent just before a daemon died under systemd and came back with
    /// the connection kept (docs/design.md §16) may never be answered (docs/protocol.md says what
    /// to send again). Also how long any line waits for a daemon that has stopped reading to take
    /// it.
    public let timeout: Duration
    private let socket: SendableSocket
    private let waiting = Mutex(Waiting())

    /// A container's sequence of states, with a number to tell it from a later one.
    private struct Subscription {
        var token: Int
        var continuation: AsyncThrowingStream<StateLine, any Error>.Continuation
    }

    /// Who waits for which lines.
    private struct Waiting {
        var nextID = 1
        var requests: [RequestID: CheckedContinuation<Reply, any Error>] = [:]
        /// Each waiting request's timeout, cancelled when its reply comes.
        var timeouts: [RequestID: Task<Void, Never>] = [:]
        /// By container: one subscription per container and connection, as the daemon keeps it.
        var subscriptions: [String: Subscription] = [:]
        /// Subscribe requests not yet answered, by id, with their container.
        var subscribing: [RequestID: String] = [:]
        var observations: [RequestID: (container: String, continuation: AsyncThrowingStream<ObservationMessage, any Error>.Continuation)] = [:]
        /// Set once the connection has ended, with why.
        var ended: ScrollClientError?
    }

    /// Connects to the daemon at `socket` (by default where scrolld puts it:
    /// `$XDG_RUNTIME_DIR/scrolld/scrolld.sock`) and reads its welcome; each request then waits
    /// up to `timeout` for its reply.
    public static func connect(socket path: String? = nil, timeout: Duration = .seconds(30)) async throws -> ScrollClient {
        let path = path ?? UnixSocketAddress.defaultPath(environment: Self.environment)
        let socket = try DaemonSocket(path: path)
        let welcome = try await Self.readWelcome(socket)
        return ScrollClient(socket: socket, welcome: welcome, timeout: timeout)
    }

    private init(socket: DaemonSocket, welcome: WelcomeLine, timeout: Duration) {
        self.socket = SendableSocket(socket)
        self.welcome = welcome
        self.timeout = timeout
        // The thread holds the client weakly: an app that drops its client ends the connection
        // (deinit shuts the socket down, and the blocked read returns).
        let socket = self.socket
        DetachedThread.start(name: "scrolld-client") { [weak self] in
            while true {
                let message: DaemonSocket.Message
                do {
                    message = try socket.value.nextMessage()
                } catch {
                    self?.end(error)
                    return
                }
                guard let self else { return }
                dispatch(message.reply)
            }
        }
    }

    deinit {
        socket.value.shutdown()
    }

    /// Ends the connection: every sequence finishes and requests still waiting fail. A container
    /// this connection created with `owned` goes with it (docs/design.md §19).
    public func close() {
        socket.value.shutdown()
    }

    // MARK: Requests

    /// Sends `operation` and waits for its reply, up to ``timeout``; a daemon error is thrown
    /// as ``ScrollClientError/daemon(code:message:)``, no reply in time as
    /// ``ScrollClientError/timeout(operation:seconds:)``.
    public func request(_ operation: Operation) async throws -> Reply {
        let id = waiting.withLock { waiting in
            defer { waiting.nextID += 1 }
            return RequestID(waiting.nextID)
        }
        return try await withCheckedThrowingContinuation { continuation in
            let ended = waiting.withLock { waiting -> ScrollClientError? in
                if let ended = waiting.ended { return ended }
                waiting.requests[id] = continuation
                return nil
            }
            if let ended { return continuation.resume(throwing: ended) }
            let timeout = self.timeout
            let expired = ScrollClientError.timeout(operation: operation.name, seconds: DaemonSocket.seconds(timeout))
            let timer = Task { [weak self] in
                guard (try? await Task.sleep(for: timeout)) != nil else { return }
                self?.fail(id, with: expired)
            }
            waiting.withLock { waiting in
                // The reply may already have come (and found no timer to cancel).
                if waiting.requests[id] != nil { waiting.timeouts[id] = timer } else { timer.cancel() }
            }
            do {
                try send(Request(id: id, operation: operation))
            } catch {
                fail(id, with: error)
            }
        }
    }

    /// Sends a line, waiting up to ``timeout`` for the daemon to take it. A line it took only
    /// part of ends the connection (``DaemonSocket/send(_:timeout:)``), and the reading thread
    /// then ends every request and sequence with that reason; a broken socket it finds by itself.
    private func send(_ request: Request) throws(ScrollClientError) {
        try socket.value.send(request, timeout: timeout)
    }

    // MARK: Streams

    /// Every state `container` publishes from now on, starting with its current one
    /// (docs/design.md §7 `subscribe`); `rate` caps it at that many a second (latest wins). A new
    /// call for the same container replaces the earlier sequence, which finishes. Ending the
    /// iteration unsubscribes.
    public func states(of container: String, rate: Double? = nil) -> AsyncThrowingStream<StateLine, any Error> {
        let (stream, continuation) = AsyncThrowingStream<StateLine, any Error>.makeStream(bufferingPolicy: .bufferingNewest(256))
        // The subscribe request's number doubles as the sequence's token.
        let registered = waiting.withLock { waiting -> (token: Int, replaced: Subscription?)? in
            if let ended = waiting.ended {
                continuation.finish(throwing: ended)
                return nil
            }
            let token = waiting.nextID
            waiting.nextID += 1
            waiting.subscribing[RequestID(token)] = container
            let replaced = waiting.subscriptions.updateValue(Subscription(token: token, continuation: continuation), forKey: container)
            return (token, replaced)
        }
        guard let registered else { return stream }
        // Finished outside the lock: finishing runs the old sequence's termination handler,
        // which takes the lock (and, seeing a newer token, sends nothing).
        registered.replaced?.continuation.finish()
        let token = registered.token, id = RequestID(token)
        continuation.onTermination = { [weak self] _ in self?.endSubscription(container, token: token) }
        do {
            try send(Request(id: id, operation: .subscribe(container: container, rate: rate)))
        } catch {
            // The daemon has no such subscription: forget it first, so that finishing sends
            // no `unsubscribe`.
            waiting.withLock { waiting in
                waiting.subscribing[id] = nil
                if waiting.subscriptions[container]?.token == token { waiting.subscriptions[container] = nil }
            }
            continuation.finish(throwing: error)
        }
        return stream
    }

    /// `observation` of `container` (docs/design.md §13): its current value first (`old` nil), then
    /// one message per change. Ending the iteration unobserves.
    public func observe(_ container: String, _ observation: ScrollObservation) -> AsyncThrowingStream<ObservationMessage, any Error> {
        let (stream, continuation) = AsyncThrowingStream<ObservationMessage, any Error>.makeStream(bufferingPolicy: .bufferingNewest(256))
        let id = waiting.withLock { waiting -> RequestID? in
            if let ended = waiting.ended {
                continuation.finish(throwing: ended)
                return nil
            }
            let id = RequestID("swift-\(waiting.nextID)")
            waiting.nextID += 1
            waiting.observations[id] = (container, continuation)
            return id
        }
        guard let id else { return stream }
        continuation.onTermination = { [weak self] _ in self?.endObservation(id) }
        do {
            try send(Request(id: nil, operation: .observe(container: container, observation: observation, id: id)))
        } catch {
            // The daemon has no such observation: forget it first (no `unobserve` then).
            _ = waiting.withLock { $0.observations.removeValue(forKey: id) }
            continuation.finish(throwing: error)
        }
        return stream
    }

    private func endSubscription(_ container: String, token: Int) {
        let ended = waiting.withLock { waiting -> Bool in
            // Only this sequence's own subscription: a newer one for the container stays.
            guard waiting.ended == nil, waiting.subscriptions[container]?.token == token else { return false }
            waiting.subscriptions[container] = nil
            return true
        }
        if ended { try? send(Request(id: nil, operation: .unsubscribe(container: container))) }
    }

    private func endObservation(_ id: RequestID) {
        let ended = waiting.withLock { waiting in
            waiting.ended == nil && waiting.observations.removeValue(forKey: id) != nil
        }
        if ended { try? send(Request(id: nil, operation: .unobserve(id: id))) }
    }

    // MARK: Reading

    /// Hands a line to whoever waits for it.
    private func dispatch(_ reply: Reply) {
        switch reply {
        case .state(let line) where line.id == nil:
            waiting.withLock { waiting in _ = waiting.subscriptions[line.container]?.continuation.yield(line) }
        case .state(let line):
            let id = line.id!
            let subscription = waiting.withLock { waiting -> AsyncThrowingStream<StateLine, any Error>.Continuation? in
                guard let container = waiting.subscribing.removeValue(forKey: id) else { return nil }
                return waiting.subscriptions[container]?.continuation
            }
            if let subscription {
                subscription.yield(line)
            } else {
                resume(id, with: reply)
            }
        case .observation(let message):
            guard let id = message.id else { return }
            waiting.withLock { waiting in _ = waiting.observations[id]?.continuation.yield(message) }
        case .removed(let container):
            let error = ScrollClientError.removed(container: container)
            let streams = waiting.withLock { waiting in
                let observations = waiting.observations.filter { $0.value.container == container }
                for id in observations.keys { waiting.observations[id] = nil }
                return (waiting.subscriptions.removeValue(forKey: container)?.continuation, observations.values.map(\.continuation))
            }
            streams.0?.finish(throwing: error)
            for observation in streams.1 { observation.finish(throwing: error) }
        case .error(let code, let message, let id?):
            let error = DaemonSocket.failure(code: code, message: message)
            let stream = waiting.withLock { waiting -> (AsyncThrowingStream<StateLine, any Error>.Continuation?, AsyncThrowingStream<ObservationMessage, any Error>.Continuation?) in
                if let container = waiting.subscribing.removeValue(forKey: id) {
                    return (waiting.subscriptions.removeValue(forKey: container)?.continuation, nil)
                }
                return (nil, waiting.observations.removeValue(forKey: id)?.continuation)
            }
            if let subscription = stream.0 {
                subscription.finish(throwing: error)
            } else if let observation = stream.1 {
                observation.finish(throwing: error)
            } else {
                fail(id, with: error)
            }
        case .error(let code, let message, nil):
            // About the connection itself (forbidden, too_large): it ends.
            end(DaemonSocket.failure(code: code, message: message))
        default:
            if let id = reply.id { resume(id, with: reply) }
        }
    }

    private func resume(_ id: RequestID, with reply: Reply) {
        takeRequest(id)?.resume(returning: reply)
    }

    private func fail(_ id: RequestID, with error: any Error) {
        takeRequest(id)?.resume(throwing: error)
    }

    /// The request's continuation, if it still waits (a reply, a failure and its timeout race:
    /// the first takes it), its timeout cancelled.
    private func takeRequest(_ id: RequestID) -> CheckedContinuation<Reply, any Error>? {
        waiting.withLock { waiting in
            waiting.timeouts.removeValue(forKey: id)?.cancel()
            return waiting.requests.removeValue(forKey: id)
        }
    }

    /// The connection is over: everyone waiting hears why.
    private func end(_ error: any Error) {
        let reason = error as? ScrollClientError ?? .disconnected("\(error)")
        let ended = waiting.withLock { waiting -> Waiting? in
            guard waiting.ended == nil else { return nil }
            let before = waiting
            waiting = Waiting()
            waiting.ended = reason
            return before
        }
        guard let ended else { return }
        for timer in ended.timeouts.values { timer.cancel() }
        for continuation in ended.requests.values { continuation.resume(throwing: reason) }
        for subscription in ended.subscriptions.values { subscription.continuation.finish(throwing: reason) }
        for observation in ended.observations.values { observation.continuation.finish(throwing: reason) }
    }

    private static func readWelcome(_ socket: DaemonSocket) async throws -> WelcomeLine {
        while true {
            let message = try socket.nextMessage()
            switch message.reply {
            case .welcome:
                return try ReplyDecoder.welcome(message.line)
            case .error(let code, let text, _):
                throw DaemonSocket.failure(code: code, message: text)
            default:
                continue
            }
        }
    }

    private static var environment: [String: String] {
        guard let runtime = getenv("XDG_RUNTIME_DIR") else { return [:] }
        return ["XDG_RUNTIME_DIR": String(cString: runtime)]
    }
}

/// The socket, read by the reader thread and written by any task (``DaemonSocket/send(_:timeout:)``
/// touches no read state).
private final class SendableSocket: @unchecked Sendable {
    let value: DaemonSocket
    init(_ value: DaemonSocket) { self.value = value }
}
