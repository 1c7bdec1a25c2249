import ScrollDaemon
import ArgumentParser
import FoundationEssentials
import Logging
import NIOCore
import ScrollConfig
import ScrollInput
import ScrollLog
import ScrollModel
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run the daemon: read scroll input, drive the containers, serve clients on a Unix socket.",
        discussion: """
            Clients connect to the socket (default $XDG_RUNTIME_DIR/scrolld/scrolld.sock) and speak \
            JSON lines (docs/protocol.md). --replay feeds a recorded log in real time instead of \
            real devices: a demo, or a test source; it excludes --device and --fallback-replay. \
            SIGHUP reloads the configuration; SIGTERM and SIGINT stop the daemon cleanly.

            The container options apply on top of the configuration, at start and at every \
            reload, with the file's checks: one the configuration refuses (an unknown --set key, \
            a value out of range) is a usage error. --container NAME alone creates container \
            NAME with the built-in defaults when the configuration has none of that name, and \
            changes nothing of one it has. A --device that does not exist stops the daemon at \
            once (status 66).
            """
    )

    @Option(parsing: .unconditional, help: ArgumentHelp("The configuration file (default: the XDG search path).", valueName: "FILE"))
    var config: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The socket to listen on.", valueName: "PATH"))
    var socket: String?

    @Option(name: .customLong("device"), parsing: .unconditionalSingleValue, help: ArgumentHelp("An input device node to use instead of the seat (repeatable; not with --replay).", valueName: "PATH"))
    var devices: [String] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Feed this event log (a regular file of at most 1 GiB) in real time instead of real devices.", valueName: "LOG"))
    var replay: String?

    @Flag(help: "With --replay: start the log over when it ends.")
    var loop = false

    @Option(parsing: .unconditional, help: ArgumentHelp("With --replay: play faster (2) or slower (0.5).", valueName: "X"))
    var speed: Double = 1

    @Option(
        name: .customLong("replay-start"),
        parsing: .unconditional,
        help: ArgumentHelp("With --replay: start playing at once (now), or when the first client connects (first-client).", valueName: "WHEN")
    )
    var replayStart: ReplayStart = .now

    @Option(name: .customLong("fallback-replay"), parsing: .unconditional, help: ArgumentHelp("When no input device is usable, say why and serve this log (a regular file of at most 1 GiB) in a loop instead (not with --replay).", valueName: "LOG"))
    var fallbackReplay: String?

    // Hidden: for tuning and for tests, which cannot wait the default 30 s (docs/protocol.md).
    @Option(
        name: .customLong("stuck-client-timeout"),
        parsing: .unconditional,
        help: ArgumentHelp("Seconds a client's socket may stay full before the client is dropped (default 30).", valueName: "S", visibility: .hidden)
    )
    var stuckClientTimeout: Double = 30

    @Option(parsing: .unconditional, help: ArgumentHelp("Record the session (input and every request that changes state) into this event log, a regular file (replay it with `scrolld replay FILE --container NAME`).", valueName: "FILE"))
    var record: String?

    // Hidden: the daemon's input thread fails this many seconds after start, to test that the
    // daemon survives losing its input (DaemonTests).
    @Option(name: .customLong("fail-input-after"), parsing: .unconditional, help: ArgumentHelp("Make the input thread fail after S seconds.", valueName: "S", visibility: .hidden))
    var failInputAfter: Double?

    @OptionGroup(title: "Container overrides")
    var model: ModelOptions

    func validate() throws {
        guard speed > 0, speed.isFinite else { throw ValidationError("--speed expects a positive number") }
        if let failInputAfter, !(failInputAfter >= 0 && failInputAfter < 86_400) {
            throw ValidationError("--fail-input-after expects a number of seconds from 0 to 86400")
        }
        if record?.isEmpty == true { throw ValidationError("--record expects a file name") }
        guard stuckClientTimeout > 0, stuckClientTimeout <= 86_400 else {
            throw ValidationError("--stuck-client-timeout expects a number of seconds greater than 0 and at most 86400")
        }
        if loop && replay == nil { throw ValidationError("--loop goes with --replay") }
        if speed != 1 && replay == nil { throw ValidationError("--speed goes with --replay") }
        if replayStart != .now && replay == nil { throw ValidationError("--replay-start goes with --replay") }
        // --replay replaces the devices, so these would be ignored (found by a user trial).
        if replay != nil, !devices.isEmpty {
            throw ValidationError("--device and --replay exclude each other: --replay feeds the log instead of devices")
        }
        if replay != nil, fallbackReplay != nil {
            throw ValidationError("--fallback-replay and --replay exclude each other: --replay reads no device to fall back from")
        }
    }

    /// The most a daemon's replay log (`--replay`, `--fallback-replay`) may hold, bytes: it is
    /// read whole and kept (a looped replay starts over). A log the daemon records under the
    /// default `daemon.record_limit_mb` fits.
    static let replayLimit = 1 << 30

    /// The events of the log at `path`, a regular file of at most ``replayLimit`` bytes. One that
    /// cannot be opened, or is not a regular file (a FIFO, `/dev/zero`: neither may end), is
    /// EX_NOINPUT; one too large, or not a log, EX_DATAERR, as `scrolld replay` says.
    static func loadReplay(_ path: String, speed: Double, loop: Bool, start: ReplayStart = .now, logger: Logger) throws -> Daemon.ReplayOptions {
        let bytes: [UInt8]
        do {
            bytes = try FileDescriptor.readRegularFile(atPath: path, limit: replayLimit)
        } catch let error as WholeFileRefusal where error != .notRegular {
            logger.critical("cannot replay \(path): \(error), more than the daemon replays")
            throw ExitCode(65)  // EX_DATAERR
        } catch {
            logger.critical("cannot open \(path): \(error)")
            throw ExitCode(66)  // EX_NOINPUT
        }
        do {
            let events = try EventLog(parsing: bytes) { logger.warning("\(path): \($0)") }.events
            return Daemon.ReplayOptions(events: events, speed: speed, loop: loop, start: start, label: path)
        } catch {
            logger.critical("cannot replay \(path): \(error)")
            throw ExitCode(65)  // EX_DATAERR, as `scrolld replay` says for the same log
        }
    }

    /// The recording's file (`--record`, else `daemon.record`), created before anything runs:
    /// a path that cannot be written stops the daemon at once with the reason, rather than
    /// losing a session silently. One that is not a regular file (a FIFO, `/dev/stdout` into a
    /// pipe) is refused as the configuration file is: the loop writes the recording, and a
    /// reader that stops reading would block the daemon for good.
    static func openRecording(option: String?, configured: String?, logger: Logger) throws -> RecordingFile? {
        guard let path = option ?? configured else { return nil }
        do {
            return try RecordingFile(path: path)
        } catch where error.description == RecordingFile.notRegular {
            let reason = "cannot record to \(path): \(error) (a pipe or terminal that stops reading would block the daemon)"
            if option != nil { throw ValidationError(reason) }
            logger.critical("daemon.record: \(reason)")
            throw ExitCode(78)  // EX_CONFIG
        } catch {
            logger.critical("cannot record to \(path): \(error)")
            throw ExitCode(73)  // EX_CANTCREAT
        }
    }

    /// Where the configuration comes from: the file (`--config` or the search path) with the
    /// command line's overrides on top.
    func configurationSource(environment: [String: String]) throws -> ConfigurationFileSource {
        // `--container NAME` alone makes the container (docs/decisions.md), as an empty
        // `[containers.NAME]` does, and changes nothing of one the file defines. `main` always
        // exists: a daemon started without options has nothing to apply at each reload.
        var overrides = try model.overrides()
        if !devices.isEmpty { overrides.append(("daemon.devices", .array(devices.map { .string($0) }))) }
        return ConfigurationFileSource(
            explicitPath: config, environment: environment, overrides: overrides,
            definedContainers: model.container == "main" ? [] : [model.container])
    }

    /// The configuration to start with and the file it came from. A bad file stops the daemon
    /// with the reason (EX_CONFIG); command-line options the configuration refuses are a usage
    /// error (EX_USAGE), with `run`'s usage.
    static func load(_ source: ConfigurationFileSource, logger: Logger) throws -> (Configuration, String?) {
        var loaded: Configuration
        let file: String?
        do {
            let text: String?
            (text, file) = try source.read()
            loaded = try ConfigurationFileSource.parseFile(text, file: file)
        } catch {
            logger.critical("\(error)")
            throw ExitCode(78)  // EX_CONFIG
        }
        do {
            try source.applyOverrides(to: &loaded)
        } catch {
            throw ValidationError(error.description)
        }
        logger.info("configuration: \(file ?? "built-in defaults")")
        ConfigurationFileSource.logWarnings(of: loaded, to: logger)
        return (loaded, file)
    }

    /// Device nodes named by `--device` must exist: a typo would otherwise leave the daemon
    /// running on nothing with libinput's vague "could not use it" (found by a user trial). The
    /// reason is the system's (EX_NOINPUT). Permission is left to libinput's open, whose
    /// failure the daemon explains with its fix and serves on (docs/design.md §9).
    static func checkDeviceNodes(_ paths: [String], logger: Logger) throws {
        for path in paths {
            guard let reason = DeviceOptions.unusable(path) else { continue }
            logger.critical("cannot use --device \(path): \(reason)")
            throw ExitCode(66)  // EX_NOINPUT
        }
    }

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let journal = environment["JOURNAL_STREAM"] != nil
        LoggingSystem.bootstrap { JournalLogHandler(label: $0, journal: journal) }
        let logger = Logger(label: "scrolld")
        // One descriptor per client: a daemon serving many clients must not stop at the soft
        // limit (often 1024) when the hard limit allows more.
        switch OpenFileLimit.raiseToHardLimit() {
        case .raised(let from, let to): logger.info("open file limit raised from \(from) to \(to)")
        case .failed(let reason): logger.warning("cannot raise the open file limit: \(reason)")
        case .unchanged: break
        }

        let source = try configurationSource(environment: environment)
        let (configuration, fileInForce) = try Self.load(source, logger: logger)
        try Self.checkDeviceNodes(devices, logger: logger)

        let input: Daemon.Input
        if let replay {
            input = .replay(try Self.loadReplay(replay, speed: speed, loop: loop, start: replayStart, logger: logger))
        } else {
            let daemon = configuration.daemon
            let backend = LibinputContext.Backend.resolve(devices: daemon.devices, seat: daemon.seat, environment: environment)
            let fallback = try fallbackReplay.map { try Self.loadReplay($0, speed: 1, loop: true, logger: logger) }
            input = .libinput(backend, fallback: fallback)
        }

        let inherited = SocketActivation.listeningSocket()?.fd
        let chosen = socket ?? configuration.daemon.socket
        let path = chosen ?? SocketLocation.defaultPath(environment: environment)
        let daemon = Daemon(
            options: .init(
                socketPath: path,
                inheritedSocket: inherited,
                configuration: configuration,
                configFile: source,
                fileInForce: fileInForce,
                privateSocketDirectory: chosen == nil,
                stuckClientLimit: .nanoseconds(Int64(stuckClientTimeout * 1e9)),
                input: input,
                environment: environment,
                record: try Self.openRecording(option: record, configured: configuration.daemon.record, logger: logger),
                failInputAfter: failInputAfter
            ),
            logger: logger
        )
        do {
            try daemon.run()
        } catch let error as SocketLocation.AlreadyRunning {
            logger.critical("\(error)")
            throw ExitCode(1)
        } catch let error as SocketLocation.Unusable {
            logger.critical("\(error)")
            throw ExitCode(1)
        } catch let error as WebListenerError {
            logger.critical("\(error)")
            throw ExitCode(1)
        }
    }
}
