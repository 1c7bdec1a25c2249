import Foundation
import Logging
import NIOCore
import NIOEmbedded
import ScrollConfig
import ScrollDaemon
import ScrollModel
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's logic on an `EmbeddedEventLoop`: no process, no socket, no sleep. Time moves
/// only when a test advances it, so frames, rate limits and timeouts are exact.
final class EmbeddedDaemon {
    let loop = EmbeddedEventLoop()
    let core: DaemonCore

    init(
        configuration: Configuration = .defaults, source: ConfigurationFileSource = ConfigurationFileSource(explicitPath: nil, environment: [:]),
        background: any BackgroundWork = InPlace(), stuckLimit: TimeAmount? = nil, logs: LogLines? = nil
    ) throws {
        var logger = logs.map { logs in Logger(label: "test") { _ in LogLines.Handler(lines: logs) } } ?? Logger(label: "test")
        logger.logLevel = logs == nil ? .critical : .info
        core = try DaemonCore(
            eventLoop: loop, configuration: configuration,
            source: source, background: background,
            serverName: "scrolld test", logger: logger
        )
        if let stuckLimit { core.connections.stuckClientLimit = stuckLimit }
    }

    /// A connected client (the daemon's own uid), its welcome already read.
    func connect(failing: FailingWrites? = nil) throws -> Connection {
        let connection = try open(failing: failing)
        let welcome = try connection.next()
        precondition(welcome?["type"] as? String == "welcome")
        return connection
    }

    /// A connection through the daemon's one pipeline (`ClientPipeline`), nothing read yet.
    /// `restoring`: taken back after a restart as connection `restoring`.
    func open(edge: ConnectionEdge = .standIn(), failing: FailingWrites? = nil, restoring: Int? = nil) throws -> Connection {
        let channel = EmbeddedChannel(loop: loop)
        if let failing { try channel.pipeline.syncOperations.addHandler(failing) }
        try ClientPipeline.configure(channel, core: core, edge: edge, restoring: restoring)
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/embedded")).wait()
        return Connection(channel: channel)
    }

    /// Moves virtual time on by `seconds`, running every task due meanwhile.
    func advance(_ seconds: Double) {
        loop.advanceTime(by: .nanoseconds(Int64(seconds * 1e9)))
    }

    /// The loop's clock, µs.
    var now: Timestamp { loop.timestamp }

    /// An input event stamped now.
    func input(_ kind: ScrollEvent.Kind, device: Int = 1) {
        core.input(ScrollEvent(time: now, device: device, kind: kind))
    }
}

/// What a daemon logged, one line a message (its level, then the message), for a test to read.
final class LogLines: Sendable {
    private let captured = Mutex<[String]>([])

    var lines: [String] { captured.withLock { $0 } }

    struct Handler: LogHandler {
        let lines: LogLines
        var logLevel: Logger.Level = .info
        var metadata: Logger.Metadata = [:]

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            lines.captured.withLock { $0.append("\(event.level): \(event.message)") }
        }
    }
}

extension ConnectionEdge {
    /// What the POSIX edge would tell of an embedded channel: the test process' uid, the
    /// peer `credentials` (the daemon's own uid unless said otherwise), and no socket for
    /// direct writes (NIO's write path does them all).
    static func standIn(
        _ credentials: PeerCredentials = PeerCredentials(pid: 1, uid: getuid(), gid: getgid()),
        daemonUID: UInt32 = getuid()
    ) -> ConnectionEdge {
        ConnectionEdge(daemonUID: daemonUID) { $0.eventLoop.makeSucceededFuture(credentials) }
    }
}

/// One client's end of an embedded connection: lines in, JSON objects out.
final class Connection {
    let channel: EmbeddedChannel
    private var pending: [UInt8] = []

    init(channel: EmbeddedChannel) {
        self.channel = channel
    }

    func send(_ line: String) throws {
        try channel.writeInbound(ByteBuffer(string: line + "\n"))
    }

    /// The next line the daemon wrote, decoded; nil when it wrote nothing more.
    func next() throws -> [String: Any]? {
        while true {
            if let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(pending[..<newline])
                pending.removeSubrange(...newline)
                return try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any]
            }
            guard let buffer = try channel.readOutbound(as: ByteBuffer.self) else { return nil }
            pending += buffer.readableBytesView
        }
    }

    /// Every line written so far.
    func drain() throws -> [[String: Any]] {
        var lines: [[String: Any]] = []
        while let line = try next() { lines.append(line) }
        return lines
    }

    /// Sends a request and returns the first line written after it.
    func request(_ line: String) throws -> [String: Any]? {
        try send(line)
        return try next()
    }
}


/// A socket whose next write fails, as one reset by its peer does: the write's promise fails and
/// the channel closes right there, inside whatever the daemon was doing when it wrote.
final class FailingWrites: ChannelOutboundHandler {
    typealias OutboundIn = ByteBuffer
    var armed = false

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        guard armed else { return context.write(data, promise: promise) }
        armed = false
        promise?.fail(ChannelError.ioOnClosedChannel)
        context.close(promise: nil)
    }
}
