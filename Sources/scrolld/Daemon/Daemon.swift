import Logging
import NIOCore
import NIOPosix
import ScrollConfig
import ScrollLog
import ScrollModel
import UnixSignals
#if canImport(Glibc)
import Glibc
#endif

/// The running daemon: one event loop thread that owns the engine and every client, a Unix
/// socket listener, an input source, and the process' signals.
final class Daemon: Sendable {
    struct Options: Sendable {
        var socketPath: String
        /// An inherited listening socket (systemd socket activation), used instead of binding.
        var inheritedSocket: Int32?
        var configuration: Configuration
        var configFile: ConfigurationFileSource
        var replay: ReplayOptions?
        var environment: [String: String]
    }

    struct ReplayOptions: Sendable {
        var events: [ScrollEvent]
        var speed: Double
        var loop: Bool
        var label: String
    }

    let options: Options
    let logger: Logger
    let notifier: SystemdNotifier

    init(options: Options, logger: Logger) {
        self.options = options
        self.logger = logger
        notifier = SystemdNotifier(environment: options.environment)
    }

    func run() async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let options = self.options, logger = self.logger, notifier = self.notifier

        // Everything that touches the core is created on, and bound to, the loop.
        let core = try await loop.submit {
            let core = try DaemonCore(eventLoop: loop, configuration: options.configuration, source: options.configFile, logger: logger)
            return NIOLoopBound(core, eventLoop: loop)
        }.get()
        let replay = try await loop.submit { () -> NIOLoopBound<ReplaySource?> in
            guard let replay = options.replay else { return NIOLoopBound(nil, eventLoop: loop) }
            let source = ReplaySource(events: replay.events, speed: replay.speed, loop: replay.loop, core: core.value)
            core.value.devices = { [weak source] in
                (source?.devices ?? [:]).sorted { $0.key < $1.key }.map {
                    DaemonCore.DeviceSummary(id: $0.key, name: $0.value.0, capabilities: $0.value.1, path: nil)
                }
            }
            return NIOLoopBound(source, eventLoop: loop)
        }.get()

        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .childChannelOption(.writeBufferWaterMark, value: .init(low: 16 * 1024, high: 64 * 1024))
            .childChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(LineFrameDecoder()))
                    try channel.pipeline.syncOperations.addHandler(ClientHandler(core: core.value))
                }
            }

        let server: Channel
        var ownsSocketFile = false
        if let fd = options.inheritedSocket {
            server = try await bootstrap.withBoundSocket(fd).get()
            logger.info("listening on the socket systemd passed (fd \(fd))")
        } else {
            try SocketLocation.prepare(options.socketPath)
            // The socket is created 0600: only the owner's uid may even connect.
            let previous = umask(0o177)
            defer { umask(previous) }
            server = try await bootstrap.bind(unixDomainSocketPath: options.socketPath).get()
            ownsSocketFile = true
            logger.info("listening on \(options.socketPath)")
        }

        try await loop.submit {
            core.value.onStatusChange = {
                notifier.notify("STATUS=\(core.value.devices().count) devices, \(core.value.clients.count) clients")
            }
            replay.value?.start()
        }.get()
        if let replay = options.replay {
            logger.notice("serving \(replay.label) in real time\(replay.loop ? ", looped" : "") as the input source")
        }
        notifier.notify("READY=1\nSTATUS=\(options.replay == nil ? 0 : 1) sources, 0 clients")

        let watchdog: RepeatedTask?
        if let usec = SystemdNotifier.watchdogInterval(environment: options.environment) {
            // Only when systemd asks for it: the one periodic wake-up the daemon ever has.
            watchdog = loop.scheduleRepeatedTask(initialDelay: .microseconds(usec / 2), delay: .microseconds(usec / 2)) { _ in
                notifier.notify("WATCHDOG=1")
            }
        } else {
            watchdog = nil
        }

        for await signal in await UnixSignalsSequence(trapping: .sigterm, .sigint, .sighup) {
            if signal == .sighup {
                logger.notice("SIGHUP: reloading the configuration")
                let result = try await loop.submit { core.value.reload() }.get()
                if result.ok {
                    logger.notice("configuration reloaded: \(result.message)")
                } else {
                    logger.error("configuration not reloaded, keeping the last good one: \(result.message)")
                }
                continue
            }
            logger.notice("\(signal == .sigterm ? "SIGTERM" : "SIGINT"): shutting down")
            break
        }

        notifier.notify("STOPPING=1")
        watchdog?.cancel()
        try? await loop.submit {
            replay.value?.stop()
            for client in core.value.clients.values { client.channel.close(promise: nil) }
        }.get()
        try? await server.close()
        if ownsSocketFile { unlink(options.socketPath) }
        try await group.shutdownGracefully()
    }
}
