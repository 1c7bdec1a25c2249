import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOPosix
import ScrollConfig
import ScrollInput
import ScrollLog
import ScrollModel
import ScrollProtocol
import ScrollDaemon
import ScrollDaemonPOSIX
import ScrollDesktop
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
        /// The file the configuration in force came from (nil: the built-in defaults).
        var fileInForce: String?
        /// Whether the socket's directory is the daemon's own (the default path): kept 0700.
        var privateSocketDirectory: Bool
        /// How long a client's socket may stay full before the client is dropped.
        var stuckClientLimit: TimeAmount
        var input: Input
        var environment: [String: String]
        /// Where to record the session (docs/design.md §17), if anywhere.
        var record: RecordingFile?
        /// Hidden, for tests: the input thread fails after this many seconds.
        var failInputAfter: Double?
    }

    enum Input: Sendable {
        case replay(ReplayOptions)
        /// Real devices; when none is usable, the fallback log (if any) is served instead.
        case libinput(LibinputContext.Backend, fallback: ReplayOptions?)
    }

    struct ReplayOptions: Sendable {
        var events: [ScrollEvent]
        var speed: Double
        var loop: Bool
        var start: ReplayStart = .now
        var label: String
    }

    let options: Options
    let logger: Logger
    let notifier: SystemdNotifier

    init(options: Options, logger: Logger) {
        self.options = options
        self.logger = logger
        notifier = SystemdNotifier(environment: options.environment, logger: logger)
    }

    /// What a run holds from start to shutdown.
    struct Running {
        let group: MultiThreadedEventLoopGroup
        let loop: EventLoop
        let core: NIOLoopBound<DaemonCore>
        let replay: NIOLoopBound<ReplaySource?>
        let libinput: LibinputSource?
        /// Completed with the signal that ends the run.
        let stopped: EventLoopPromise<Int32>
        /// Set once the daemon listens on a socket of its own.
        let listener = NIOLockedValueBox<NIOLoopBound<SocketListener>?>(nil)
    }

    /// Runs until SIGTERM or SIGINT. Synchronous on purpose: the process' only threads are
    /// the event loop, the input thread, the thread that reads the configuration file for a
    /// reload, the one that sends the service manager's messages, and this one, blocked until
    /// shutdown.
    func run() throws {
        // Messages to the service manager go out on a thread of their own. At the end of the run,
        // once every connection is closed (their removes from the file descriptor store queued),
        // what waits is sent and the thread joined (NotificationSender.finish).
        try notifier.start()
        defer { notifier.finish() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        let background = NIOThreadPool(numberOfThreads: 1)
        background.start()
        let core = try makeCore(on: loop, background: background)
        let (replay, libinput) = try makeInput(for: core, on: loop)
        let running = Running(group: group, loop: loop, core: core, replay: replay, libinput: libinput, stopped: loop.makePromise(of: Int32.self))

        // Signals are handled from before the socket exists, so a SIGTERM sent as soon as a client
        // can connect is never the default action.
        let signals = try installSignals(running)
        // Reload when the configuration file in use changes. Watched before the socket accepts:
        // a client that can connect must find the daemon whole (an edit made right after the
        // first connection is never missed, and the descriptors a client sees are all there).
        var watcher: Channel?
        if let file = (try? options.configFile.load())?.file ?? options.configFile.explicitPath {
            watcher = ConfigurationWatcher.start(path: file, core: core, logger: logger)
        }
        // Recording starts before the socket accepts: no request of the session is missed.
        if let file = options.record {
            let header = EventLogHeader(created: RFC3339.now(), source: "scrolld \(Scrolld.version) run --record")
            try loop.submit { core.value.startRecording(to: file, header: header) }.wait()
            logger.notice("recording the session to \(file.path)")
        }
        // Under systemd, the session and the connections are kept in its file descriptor store
        // and taken back after a restart (docs/design.md §16), before the socket accepts anew.
        try keepSession(core: core, loop: loop)
        // The desktop's settings are in force (and recorded) before a client can connect.
        let desktops = followDesktops(running)
        let inherited = try listen(running)
        let web = try listenForBrowsers(running)

        let status = SystemdStatus(notifier: notifier)
        try loop.submit { core.value.status.observer = status }.wait()
        // Real time for the loop once it is set up (binding, the first channels: work that may
        // take a while and need not be real time) and SIGXCPU is handled (by default it kills),
        // before the input starts and READY=1.
        let priority = Int32(options.configuration.daemon.realtimePriority)
        if priority > 0 {
            let logger = self.logger
            try loop.submit { RealtimeScheduling.enterCurrentThread(as: .eventLoop, priority: priority, logging: logger) }.wait()
        }
        try startInput(running)
        let watchdog = startWatchdog(on: loop)

        let signal = try running.stopped.futureResult.wait()
        logger.notice("\(signal == SIGTERM ? "SIGTERM" : "SIGINT"): shutting down")
        notifier.notify("STOPPING=1")
        watchdog?.cancel()
        stop(running, desktops: desktops, closing: [watcher, signals, inherited, web].compactMap { $0 })
        try background.syncShutdownGracefully()
        try group.syncShutdownGracefully()
    }

    /// Stops the input (libinput's thread, a replay) and the desktops' watchers, closes every
    /// connection, then `channels` in their order and the daemon's own socket.
    private func stop(_ running: Running, desktops: [any DesktopSettingsWatcher], closing channels: [Channel]) {
        running.libinput?.stop()
        for watcher in desktops { watcher.stop() }
        try? running.loop.submit {
            running.replay.value?.stop()
            for client in running.core.value.connections.clients.values { client.channel.close(promise: nil) }
        }.wait()
        for channel in channels { try? channel.close().wait() }
        if let own = running.listener.withLockedValue({ $0 }) {
            try? running.loop.flatSubmit { own.value.stop() }.wait()
        }
    }

    /// The core, created on (and bound to) the loop: everything that touches it runs there.
    private func makeCore(on loop: EventLoop, background: NIOThreadPool) throws -> NIOLoopBound<DaemonCore> {
        let options = self.options, logger = self.logger
        return try loop.submit {
            let core = try DaemonCore(
                eventLoop: loop, configuration: options.configuration, from: options.fileInForce, source: options.configFile,
                background: ThreadPoolWork(pool: background), serverName: "scrolld \(Scrolld.version)", logger: logger
            )
            core.connections.stuckClientLimit = options.stuckClientLimit
            core.connections.limit = OpenFileLimit.connectionLimit(keepingStores: FileDescriptorStore.isAvailable(environment: options.environment))
            return NIOLoopBound(core, eventLoop: loop)
        }.wait()
    }

    /// The input source: a replay, or libinput on its own thread (with an optional fallback).
    private func makeInput(for core: NIOLoopBound<DaemonCore>, on loop: EventLoop) throws -> (NIOLoopBound<ReplaySource?>, LibinputSource?) {
        let options = self.options
        let replay = try loop.submit { () -> NIOLoopBound<ReplaySource?> in
            let log: ReplayOptions?
            switch options.input {
            case .replay(let replay): log = replay
            case .libinput(_, let fallback): log = fallback
            }
            guard let log else { return NIOLoopBound(nil, eventLoop: loop) }
            return NIOLoopBound(ReplaySource(events: log.events, speed: log.speed, loop: log.loop, core: core.value), eventLoop: loop)
        }.wait()
        var libinput: LibinputSource?
        if case .libinput(let backend, _) = options.input {
            let daemon = options.configuration.daemon
            libinput = LibinputSource(
                backend: backend, ignoring: daemon.ignore, settings: options.configuration.input,
                realtimePriority: Int32(daemon.realtimePriority),
                followingSessionsOf: daemon.followSession ? backend.followedSeat(environment: options.environment) : nil,
                logger: logger
            )
        }
        let source = libinput
        try loop.submit {
            core.value.scheduler.input = source ?? replay.value
            if case .libinput(_, let log?) = options.input, let demo = replay.value {
                core.value.fallback = FallbackDemo(source: demo, label: log.label, scheduler: core.value.scheduler, logger: core.value.logger)
            }
        }.wait()
        return (replay, libinput)
    }

    /// SIGHUP reloads; SIGTERM and SIGINT end the run; SIGXCPU (a real-time thread that did not
    /// sleep) puts the threads at normal priority for a while.
    private func installSignals(_ running: Running) throws -> Channel {
        let logger = self.logger
        let loop = running.loop, core = running.core, libinput = running.libinput
        let stopped = running.stopped, listener = running.listener
        // Whether a return to real time after a SIGXCPU is scheduled (only the loop touches it).
        let realtimeRetry = NIOLockedValueBox(false)
        let priority = Int32(options.configuration.daemon.realtimePriority)
        return try SignalPipe.install([SIGTERM, SIGINT, SIGHUP, SIGXCPU], on: loop) { number in
            switch number {
            case SIGXCPU:
                // The handler already put the threads back to SCHED_OTHER; they ask again once
                // the burst is likely over (one timer, armed only now: no wake-up otherwise).
                logger.warning("a real-time thread ran \(RealtimeScheduling.cpuLimit.soft / 1000) ms without sleeping (RLIMIT_RTTIME): the daemon runs at normal priority and asks again in \(RealtimeScheduling.retryDelay) s")
                guard priority > 0 else { return }
                let alreadyScheduled = realtimeRetry.withLockedValue { scheduled in
                    defer { scheduled = true }
                    return scheduled
                }
                guard !alreadyScheduled else { return }
                loop.scheduleTask(in: .seconds(RealtimeScheduling.retryDelay)) {
                    realtimeRetry.withLockedValue { $0 = false }
                    RealtimeScheduling.allowAgain()
                    RealtimeScheduling.enterCurrentThread(as: .eventLoop, priority: priority, logging: logger)
                    libinput?.askForRealtimeAgain()
                }
            case SIGHUP:
                listener.withLockedValue { $0 }?.value.ensureListening()
                logger.notice("SIGHUP: reloading the configuration")
                core.value.reload().whenSuccess { result in
                    if result.ok {
                        logger.notice("configuration reloaded: \(result.message)")
                    } else {
                        logger.error("configuration not reloaded, keeping the last good one: \(result.message)")
                    }
                }
            default:
                stopped.succeed(number)
            }
        }
    }

    /// The server bootstrap of a listening socket. Made where it is used: a bootstrap is not
    /// Sendable, and one is needed on the loop.
    private static func makeBootstrap(group: EventLoopGroup, core: NIOLoopBound<DaemonCore>) -> ServerBootstrap {
        .listening(group: group) { channel in try ClientPipeline.configure(channel, core: core.value, edge: .posix) }
    }

    /// Listens on systemd's socket (systemd's to keep; returned, to close) or on a socket of our
    /// own, kept at its path (in `running.listener`).
    private func listen(_ running: Running) throws -> Channel? {
        let group = running.group, core = running.core, loop = running.loop
        if let fd = options.inheritedSocket {
            let inherited = try Self.makeBootstrap(group: group, core: core).withBoundSocket(fd).wait()
            logger.info("listening on the socket systemd passed (fd \(fd))")
            return inherited
        }
        let options = self.options, logger = self.logger
        let own = try loop.flatSubmit {
            let own = SocketListener(
                path: options.socketPath, privateDirectory: options.privateSocketDirectory,
                bootstrap: Self.makeBootstrap(group: group, core: core), eventLoop: loop, logger: logger
            )
            let bound = NIOLoopBound(own, eventLoop: loop)
            return own.start().map { bound }
        }.wait()
        running.listener.withLockedValue { $0 = own }
        logger.info("listening on \(options.socketPath)")
        return nil
    }

    /// The WebSocket listener of `[web] listen`, when it is set (docs/design.md §24).
    private func listenForBrowsers(_ running: Running) throws -> Channel? {
        guard let address = options.configuration.web.listen else { return nil }
        let core = running.core
        let channel = try WebListener.start(at: address, group: running.group, core: core)
        logger.info("listening for WebSocket clients on ws://\(address)\(WebHandshake.path)")
        return channel
    }

    /// Starts the input source and says READY=1: at once for a replay, and for libinput once
    /// the devices present at start are known (`devices` and the first states right after
    /// activation then already see them).
    private func startInput(_ running: Running) throws {
        let core = running.core, replay = running.replay, logger = self.logger, notifier = self.notifier
        switch options.input {
        case .replay(let log):
            switch log.start {
            case .now:
                try running.loop.submit { replay.value?.start() }.wait()
                logger.notice("serving \(log.label) in real time\(log.loop ? ", looped" : "") as the input source")
            case .firstClient:
                try running.loop.submit { core.value.startsWithFirstClient = replay.value }.wait()
                logger.notice("serving \(log.label) in real time\(log.loop ? ", looped" : "") as the input source, from when the first client connects")
            }
            notifier.notify("READY=1\nSTATUS=\(try running.loop.submit { core.value.connections.clients.count }.wait()) clients")
        case .libinput(let backend, _):
            running.libinput?.start(core: core) { usable, problem in
                defer { notifier.notify("READY=1\nSTATUS=\(core.value.devices.count) devices, \(core.value.connections.clients.count) clients") }
                if usable > 0 {
                    logger.notice("reading \(usable) input device\(usable == 1 ? "" : "s") (\(backend.label))")
                    return
                }
                logger.warning("no usable input device: \(problem ?? "none with wheel, touchpad or trackpoint scrolling was found")")
                core.value.fallback?.serve()
            }
            if let seconds = options.failInputAfter {
                let libinput = running.libinput
                running.loop.scheduleTask(in: .nanoseconds(Int64(seconds * 1e9))) { libinput?.injectFailure() }
            }
        }
    }

    /// systemd's watchdog, only when systemd asks for it: the one periodic wake-up the daemon
    /// ever has.
    private func startWatchdog(on loop: EventLoop) -> RepeatedTask? {
        guard let usec = SystemdNotifier.watchdogInterval() else { return nil }
        let notifier = self.notifier
        return loop.scheduleRepeatedTask(initialDelay: .microseconds(usec / 2), delay: .microseconds(usec / 2)) { _ in
            notifier.notify("WATCHDOG=1")
        }
    }
}
