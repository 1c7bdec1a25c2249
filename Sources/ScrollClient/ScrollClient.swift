import ScrollModel
import ScrollProtocol
#if canImport(Glibc)
import Glibc
#endif

/// A Swift app's connection to scrolld (docs/design.md §7, §12–§14, §19, §20): requests as async
/// methods that throw ``ScrollClientError``, a container's states and an observed value's
/// changes as `AsyncSequence`s of typed values.
///
/// ```swift
/// let scrolld = try await ScrollClient.connect(reconnect: true)
/// try await scrolld.configure("list", ContainerSettings(
///     containerSize: Size(width: 400, height: 600), rows: .uniform(count: 100, height: 44)))
/// for try await state in scrolld.states(of: "list") {
///     print(state.phase, state.contentOffset.y)
/// }
/// ```
///
/// **Threads.** The socket is read and written on a SwiftNIO event loop; no call blocks a thread
/// of Swift's cooperative pool. Every method may be called from any task.
///
/// **Lifetime.** ``close()`` ends the connection; so does releasing the last reference to the
/// client. Either way, requests still waiting and every sequence end with
/// ``ScrollClientError/closed(_:)``, saying which. A container created with `owned` goes with
/// the connection (docs/design.md §19).
///
/// **Cancellation.** Every request honours the cancellation of its task, throwing
/// ``ScrollClientError/cancelled(operation:)`` at once (the daemon may have carried it out
/// already); a sequence whose task is cancelled ends, and unsubscribes.
///
/// **Reconnection** (`reconnect: true`, docs/design.md §20): when the daemon goes away the client
/// connects again with backoff (50 ms doubling to 2 s) and puts back what it had: the containers
/// it configured, from their current description (all of them for a new daemon, the owned ones
/// for the same daemon), each re-created one at its last resting offset; its pauses and its
/// focus; its subscriptions and observations, which go on, their first state or change after
/// the restart marked ``ContainerState/resumed``. Requests made meanwhile wait for the
/// connection, within their timeout.
public final class ScrollClient: Sendable {
    let connection: Connection

    private init(connection: Connection) {
        self.connection = connection
    }

    /// Connects to the daemon at `socket` (by default where scrolld puts it:
    /// `$XDG_RUNTIME_DIR/scrolld/scrolld.sock`, else `/tmp/scrolld-UID/scrolld.sock`) and reads
    /// its welcome, within `timeout`: a daemon that accepts the connection and says nothing (a
    /// stopped one) gives ``ScrollClientError/timeout(operation:seconds:)``. Cancelling the
    /// task gives ``ScrollClientError/cancelled(operation:)`` at once.
    ///
    /// - Parameters:
    ///   - socket: the socket's path; nil for scrolld's own.
    ///   - timeout: also how long each request waits for its reply.
    ///   - reconnect: connect again when the daemon goes away, and restore what this client set
    ///     up (docs/design.md §20); without it, sequences and requests end with
    ///     ``ScrollClientError/disconnected(_:)``.
    ///   - restoreOffsets: with `reconnect`, put each container this client re-creates back at
    ///     its last resting offset (the client follows each container it configured at a low
    ///     rate to know it); false leaves them at their start.
    public static func connect(
        socket: String? = nil, timeout: Duration = .seconds(30), reconnect: Bool = false, restoreOffsets: Bool = true
    ) async throws(ScrollClientError) -> ScrollClient {
        let path = socket ?? UnixSocketAddress.defaultPath(environment: Self.environment)
        let connection = try await Connection.open(path: path, timeout: timeout, reconnect: reconnect, restoreOffsets: restoreOffsets)
        return ScrollClient(connection: connection)
    }

    deinit {
        connection.close(.closed("the ScrollClient was released (no reference to it was left), which closed its connection"))
    }

    /// The daemon's greeting: its version, containers, features, instance and focus (after a
    /// reconnection, the new daemon's).
    public var welcome: Welcome { connection.welcome }

    /// How long a request waits for its reply (``ScrollClientError/timeout(operation:seconds:)``
    /// after that). A request sent just before a daemon died under systemd and came back with
    /// the connection kept (docs/design.md §16) may never be answered; docs/protocol.md says
    /// what to send again.
    public var timeout: Duration { connection.timeout }

    /// The socket's path.
    public var socketPath: String { connection.path }

    /// Whether the client is connected now (false while a reconnecting client waits for the
    /// daemon, and once it is closed).
    public var isConnected: Bool { connection.isConnected }

    /// Ends the connection: requests still waiting and every sequence end with
    /// ``ScrollClientError/closed(_:)``. A container this connection created with `owned` goes
    /// with it (docs/design.md §19), and so do its pauses and focus.
    public func close() {
        connection.close(.closed("the ScrollClient was closed (close())"))
    }

    // MARK: Streams

    /// Every state `container` publishes from now on, starting with its current one
    /// (docs/design.md §7 `subscribe`); `rate` caps it at that many a second (latest wins, so the
    /// last state always arrives). Several sequences of one container share the connection's
    /// one subscription to it, so they ask for the same `rate` (another one fails with
    /// `invalid_value`: use a second client for a second rate). A consumer more than 1024
    /// states behind loses the oldest (a gap in `seq` shows it).
    ///
    /// The subscription starts when this is called; see ``ContainerStates`` for how the sequence
    /// ends.
    public func states(of container: String, rate: Double? = nil) -> ContainerStates {
        ContainerStates(handle: FeedHandle(connection.states(of: container, rate: rate)))
    }

    /// `value` of `container` (docs/design.md §13): its current value first (`old` nil), then
    /// one ``ObservedChange`` per change, typed:
    ///
    /// ```swift
    /// for try await change in scrolld.observe("feed", .nearEnd(distance: 300)) where change.new {
    ///     try await loadMore()
    /// }
    /// ```
    ///
    /// The observation starts when this is called; the sequence ends as ``ContainerStates``
    /// does.
    public func observe<Value>(_ container: String, _ value: ObservedValue<Value>) -> ObservedChanges<Value> {
        let sink = TypedObservationSink(value)
        connection.observe(container, sink, observation: value.observation)
        return ObservedChanges(handle: FeedHandle(sink.feed))
    }

    private static var environment: [String: String] {
        guard let runtime = getenv("XDG_RUNTIME_DIR") else { return [:] }
        return ["XDG_RUNTIME_DIR": String(cString: runtime)]
    }
}
