import ArgumentParser
import TOML
import ScrollModel
import ScrollProtocol
#if canImport(Glibc)
import Glibc
#endif

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Follow a container live.",
        discussion: """
            On a terminal, draws the container's offset, position, velocity, phase, header and \
            visible rows, updated in place (Ctrl-C ends it). When stdout is not a terminal, or \
            with --json, prints the state lines exactly as the daemon sends them, one per line. \
            When the container is removed it exits with status 1 (with --json after printing \
            the daemon's "removed" line).
            """
    )

    @Argument(help: "The container.")
    var container: String = "main"

    @Flag(help: "Print the raw state lines even on a terminal.")
    var json = false

    @Option(parsing: .unconditional, help: ArgumentHelp("At most this many states per second (the daemon keeps the latest).", valueName: "HZ"))
    var rate: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Exit after this many states.", valueName: "N"))
    var count: Int?

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count expects a positive number") }
        // Checked here as the daemon checks it: JSON has no NaN, which would reach it as 0.
        if let rate, !Limits.subscriptionRate.contains(rate) {
            let range = Limits.subscriptionRate
            throw ValidationError("--rate expects states per second from \(Limits.format(range.lowerBound)) to \(Limits.format(range.upperBound)), got \(rate)")
        }
    }

    func run() throws {
        let live = !json && Output.standardOutputIsTerminal
        try connection.run { daemon throws(ClientFailure) in
            let subscribe = Operation.subscribe(container: container, rate: rate)
            let first = try daemon.request(subscribe, timeout: connection.timeoutDuration)
            guard case .state = first.reply else { throw .unexpected(first, for: subscribe) }
            if live {
                var view = TerminalView(container: container, server: daemon.server)
                view.begin()
                defer { view.end() }
                try follow(daemon, first: first, view: &view)
            } else {
                try stream(daemon, first: first)
            }
        }
    }

    static func removed(_ container: String) -> ClientFailure {
        ClientFailure("container \(TOMLKey.quoted(container)) was removed", status: .daemonError)
    }

    /// Raw lines, each written (and so flushed) as it arrives.
    private func stream(_ daemon: DaemonConnection, first: DaemonConnection.Message) throws(ClientFailure) {
        var received = 0
        var message = first
        while true {
            if case .state = message.reply {
                Output.write(message.line + [UInt8(ascii: "\n")])
                received += 1
                if let count, received >= count { return }
            } else if case .removed(let name) = message.reply, name == container {
                // The subscription ended with its container: the line says so, and so does the
                // exit status (as `observe`'s).
                Output.write(message.line + [UInt8(ascii: "\n")])
                throw Self.removed(container)
            } else if case .error(let code, let text, nil) = message.reply {
                throw DaemonConnection.failure(code: code, message: text)
            }
            message = try daemon.nextMessage()
        }
    }

    /// The live view: every state is counted, the screen is redrawn at most 60 times a
    /// second (and 4 times a second while nothing arrives, for the rate).
    private func follow(_ daemon: DaemonConnection, first: DaemonConnection.Message, view: inout TerminalView) throws(ClientFailure) {
        let clock = ContinuousClock()
        let frame = Duration.milliseconds(16)
        let idleRefresh = Duration.milliseconds(250)
        var received = 0
        var lastDraw = clock.now
        var dirty = false

        func take(_ message: DaemonConnection.Message) throws(ClientFailure) -> Bool {
            switch message.reply {
            case .state(let line):
                received += 1
                view.record(line, at: clock.now)
                dirty = true
                return count.map { received >= $0 } ?? false
            case .removed(let name) where name == container:
                throw Self.removed(container)
            case .error(let code, let text, nil):
                throw DaemonConnection.failure(code: code, message: text)
            default:
                return false
            }
        }

        if try take(first) {
            view.draw(now: clock.now)
            return
        }
        view.draw(now: clock.now)
        lastDraw = clock.now
        dirty = false
        while true {
            let deadline = dirty ? lastDraw.advanced(by: frame) : clock.now.advanced(by: idleRefresh)
            if let line = try daemon.nextLine(until: deadline) {
                if try take(daemon.decode(line)) {
                    view.draw(now: clock.now)
                    return
                }
                // Draw once the lines already here are taken, and not more often than a frame.
                if daemon.hasBufferedLine || lastDraw.duration(to: clock.now) < frame { continue }
            }
            view.draw(now: clock.now)
            lastDraw = clock.now
            dirty = false
        }
    }
}
