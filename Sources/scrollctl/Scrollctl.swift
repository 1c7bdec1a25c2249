import ArgumentParser
import ScrollClient
import ScrollPOSIX
import ScrollModel
import ScrollProtocol
#if canImport(Glibc)
import Glibc
#endif

@main
struct Scrollctl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scrollctl",
        abstract: "Talk to scrolld: watch containers live, read their state, scroll and configure them.",
        // Written for both `--help` and the man page (man/scrollctl.1 is generated from it):
        // short lines, plain ASCII (the generator drops anything else), no line starting with a dot.
        discussion: """
            scrollctl is the command-line client of scrolld(1). It connects to the
            daemon's Unix socket, sends one request of the JSON-lines protocol and
            prints the reply; watch keeps the connection open and follows a container.

            FILES
              $XDG_RUNTIME_DIR/scrolld/scrolld.sock: the daemon's socket, as scrolld
              makes it (/tmp/scrolld-UID/scrolld.sock when XDG_RUNTIME_DIR is unset);
              --socket PATH, before or after the subcommand, names another one.

            ENVIRONMENT
              XDG_RUNTIME_DIR: where the socket is looked for.
              COLUMNS: the width of the watch view when the terminal does not say.

            EXIT STATUS
              0 done; 1 scrolld answered with an error (or refused a reload);
              64 bad command line; 69 scrolld is not running or went away; 74 a read
              or write error; 75 no reply within --timeout; 76 a reply scrollctl
              cannot read; 77 scrolld refused this user.

            EXAMPLES
              (in this order on a daemon just started, each after the one before)
              scrollctl watch                  (live view of container main)
              scrollctl watch --json | head    (the raw state lines)
              scrollctl scroll-to --y 500 --animation bouncy
              scrollctl configure list --container-size 400x300 --rows 100x44
              scrollctl scroll-to list --row 40 --anchor center
              scrollctl observe list visibleRows
              scrollctl rows list --insert 0 --count 20 --height 44
              scrollctl devices
              scrollctl reload                 (after editing the configuration)

            SEE ALSO
              scrolld(1), and the protocol document in share/doc/scrolld.
            """,
        version: "0.1.0",
        subcommands: [
            Watch.self, Observe.self, Get.self, ScrollTo.self, ScrollBy.self, Configure.self, Rows.self,
            Remove.self, Pause.self, Resume.self, BeginRefresh.self, EndRefresh.self, Focus.self, Devices.self, Reload.self, Ping.self,
        ]
    )
}

extension Scrollctl {
    /// `scrollctl --socket P get` as well as `scrollctl get --socket P`: the connection's options
    /// given before the subcommand are moved after it, where every subcommand reads them.
    static func main() {
        StandardOutputCheck.install()
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let problem = misplacedWord(in: arguments) { exit(withError: ValidationError(problem)) }
        main(connectionOptionsAfterSubcommand(arguments))
    }

    /// What ArgumentParser would let pass or misname: `scrollctl help NOSUCH` (it prints the
    /// overview and exits 0) and connection options with no subcommand after them (it calls them
    /// unknown options).
    static func misplacedWord(in arguments: [String]) -> String? {
        let names = configuration.subcommands.map { $0._commandName }
        if arguments.first == "help", let topic = arguments.dropFirst().first, !topic.hasPrefix("-"), !names.contains(topic) {
            return "no subcommand '\(topic)' (the subcommands: \(names.joined(separator: ", ")))"
        }
        let (leading, rest) = splitLeadingOptions(arguments)
        if let first = leading.first, rest.isEmpty {
            return "\(first.prefix { $0 != "=" }) goes with a subcommand, as in: scrollctl \(leading.joined(separator: " ")) ping"
        }
        return nil
    }

    static let leadingOptions: Set<String> = ["--socket", "--timeout"]

    static func connectionOptionsAfterSubcommand(_ arguments: [String]) -> [String] {
        let (moved, rest) = splitLeadingOptions(arguments)
        guard !moved.isEmpty, let subcommand = rest.first, !subcommand.hasPrefix("-") else { return arguments }
        return [subcommand] + moved + rest.dropFirst()
    }

    /// The connection options (with their values) before anything else, and the rest.
    static func splitLeadingOptions(_ arguments: [String]) -> (leading: [String], rest: ArraySlice<String>) {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            guard leadingOptions.contains(String(first.prefix { $0 != "=" })) else { break }
            leading.append(rest.removeFirst())
            if !first.contains("="), let value = rest.first {
                leading.append(value)
                rest.removeFirst()
            }
        }
        return (leading, rest)
    }
}

/// `--socket` and `--timeout`, on every subcommand (and before it: ``Scrollctl/main()``).
struct ConnectionOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The daemon's socket (default: $XDG_RUNTIME_DIR/scrolld/scrolld.sock, else /tmp/scrolld-UID/scrolld.sock).",
        valueName: "PATH"))
    var socket: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Seconds to wait for a reply.", valueName: "SECONDS"))
    var timeout: Double = 5

    func validate() throws {
        guard timeout.isFinite, timeout > 0, timeout <= 86_400 else {
            throw ValidationError("--timeout expects seconds greater than 0 and at most 86400 (a day), got \(Limits.format(timeout))")
        }
    }

    var socketPath: String {
        if let socket { return socket }
        let runtime = getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        return UnixSocketAddress.defaultPath(environment: runtime.map { ["XDG_RUNTIME_DIR": $0] } ?? [:])
    }

    var timeoutDuration: Duration { .milliseconds(Int64((timeout * 1000).rounded(.up))) }

    /// Connects, runs `body`, and turns a failure into its one line on stderr and its status.
    func run(_ body: (DaemonConnection) throws(ClientFailure) -> Void) throws {
        signal(SIGPIPE, SIG_IGN)
        do {
            let connection = try DaemonConnection(path: socketPath)
            try body(connection)
        } catch {
            Output.error(error.message)
            throw ExitCode(error.status.rawValue)
        }
    }

    /// Sends a request whose only good answer is `ok` (the commands that just act).
    func requestOK(_ operation: Operation) throws {
        try request(operation) { message, _ throws(ClientFailure) in
            guard case .ok = message.reply else { throw .unexpected(message, for: operation) }
        }
    }

    /// Sends a request whose effect is held by its connection (a `focus`, a `pause`: the daemon
    /// undoes it when the connection closes), says `holding` on stderr once it is `ok`, and holds
    /// the connection until interrupted (SIGINT, SIGTERM: status 0, the way to end it), until the
    /// daemon closes it (status 69), or until `follow` returns: what it learns on the connection
    /// says that what was held has ended another way (status 0). By default it never returns.
    func requestHeld(
        _ operation: Operation, holding: String,
        follow: (DaemonConnection) throws(ClientFailure) -> Void = Self.holdUntilClosed
    ) throws {
        // Being interrupted is how the command is meant to end (the process' exit closes the
        // connection, which undoes the request): from before the request, so that no moment of it
        // ends otherwise; unblocked too, as a parent may start it with them blocked.
        var ending = sigset_t()
        sigemptyset(&ending)
        for signal in [SIGINT, SIGTERM] {
            _ = Glibc.signal(signal) { _ in _exit(0) }
            sigaddset(&ending, signal)
        }
        pthread_sigmask(SIG_UNBLOCK, &ending, nil)
        try request(operation) { message, daemon throws(ClientFailure) in
            guard case .ok = message.reply else { throw .unexpected(message, for: operation) }
            Output.error(holding)
            try follow(daemon)
        }
    }

    /// Reads until the daemon closes the connection (status 69): without a deadline a read
    /// ends only by throwing.
    static func holdUntilClosed(_ daemon: DaemonConnection) throws(ClientFailure) {
        while true { _ = try daemon.nextLine(until: nil) }
    }

    /// Sends one request and hands its reply to `body`.
    func request(_ operation: Operation, _ body: (DaemonConnection.Message, DaemonConnection) throws(ClientFailure) -> Void) throws {
        try run { connection throws(ClientFailure) in
            let message = try connection.request(operation, timeout: timeoutDuration)
            try body(message, connection)
        }
    }
}

extension ClientFailure {
    /// A reply of the wrong kind for the request, quoted as it came (its first 200 bytes).
    static func unexpected(_ message: DaemonConnection.Message, for operation: Operation) -> ClientFailure {
        ClientFailure("unexpected reply to \(operation.name): \(DaemonSocket.quoted(message.line))", status: .protocolError)
    }
}
