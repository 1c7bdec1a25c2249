import ArgumentParser
import ScrollCommandLine
import ScrollModel
import ScrollProtocol
#if canImport(Glibc)
import Glibc
#endif

struct Get: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print a container's current state as one JSON line.")

    @Argument(help: "The container.")
    var container: String = "main"

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        let operation = Operation.get(container: container)
        try connection.request(operation) { message, _ throws(ClientFailure) in
            guard case .state(let line) = message.reply else { throw .unexpected(message, for: operation) }
            // The line a subscriber would see: the schema of docs/design.md §4, without the request's id.
            var bytes: [UInt8] = []
            ReplyEncoder.state(line.state, container: line.container, seq: line.seq, paused: line.paused, into: &bytes)
            bytes.append(UInt8(ascii: "\n"))
            Output.write(bytes)
        }
    }
}

/// `--animation`, shared by the commands that move.
struct AnimationOption: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("How to get there (default: smooth).", valueName: AnimationArgument.valueName), transform: AnimationArgument.parse)
    var animation: AnimationArgument?
}

struct ScrollTo: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll-to",
        abstract: "Scroll a container to an offset, a row or an edge.",
        discussion: """
            Give --x, --y or both (the other axis stays), or --row N with an optional --anchor \
            (without one the scroll is minimal: nothing moves when the row is already in view), \
            or --edge. A row or an edge may be combined with a coordinate for the other axis. \
            Replies once the scroll has started.
            """
    )

    @Argument(help: "The container.")
    var container: String = "main"

    @Option(parsing: .unconditional, help: ArgumentHelp("The horizontal offset.", valueName: "X"))
    var x: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("The vertical offset.", valueName: "Y"))
    var y: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("A row to bring into view (along the list's axis).", valueName: "N"))
    var row: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Where the row meets the view: top, center, bottom, leading, trailing or a number in [0, 1].",
                               valueName: "ANCHOR"))
    var anchor: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("An edge to scroll to: top, bottom, leading or trailing.", valueName: "EDGE"))
    var edge: String?

    @OptionGroup var motion: AnimationOption
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        guard x != nil || y != nil || row != nil || edge != nil else {
            throw ValidationError("give --x, --y, --row or --edge")
        }
        for value in [x, y].compactMap({ $0 }) where !value.isFinite {
            throw ValidationError("offsets must be finite numbers")
        }
        if anchor != nil, row == nil { throw ValidationError("--anchor applies to a --row") }
        _ = try position()
    }

    /// The position the options name, checked as the daemon checks it (names and ranges).
    func position() throws -> ScrollPosition {
        do throws(ScrollPositionError) {
            let anchor = try anchor.map { name throws(ScrollPositionError) in
                if let fraction = Double(name) { return try ScrollAnchor(fraction) }
                return try ScrollAnchor(named: name)
            }
            let edge = try edge.map { name throws(ScrollPositionError) in try Edge(named: name) }
            return ScrollPosition(x: x, y: y, row: row, anchor: anchor, edge: edge)
        } catch {
            throw ValidationError(error.description)
        }
    }

    func run() throws {
        let operation = Operation.scrollTo(container: container, position: try position(),
                                           animation: motion.animation?.animation ?? .smooth)
        try connection.requestOK(operation)
    }
}

struct ScrollBy: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scroll-by",
        abstract: "Scroll a container by a distance.",
        discussion: "Positive --dy moves the content up (further down the document), positive --dx left."
    )

    @Argument(help: "The container.")
    var container: String = "main"

    @Option(parsing: .unconditional, help: ArgumentHelp("The horizontal distance.", valueName: "DX"))
    var dx: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("The vertical distance.", valueName: "DY"))
    var dy: Double?

    @OptionGroup var motion: AnimationOption
    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        guard dx != nil || dy != nil else { throw ValidationError("give --dx, --dy or both") }
        for value in [dx, dy].compactMap({ $0 }) where !value.isFinite {
            throw ValidationError("distances must be finite numbers")
        }
    }

    func run() throws {
        let operation = Operation.scrollBy(container: container, delta: AxisValues(x: dx, y: dy),
                                           animation: motion.animation?.animation ?? .smooth)
        try connection.requestOK(operation)
    }
}

struct Configure: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Create a container, or change some of its settings.",
        discussion: """
            Only the given settings change; values are checked as the configuration file's are \
            (docs/config.md). Without --animation the change applies at once.
            """
    )

    @Argument(help: "The container (created when new).")
    var container: String

    @OptionGroup var shape: ContainerShapeOptions

    @Option(name: .customLong("scroll-target"), parsing: .unconditional, help: ArgumentHelp("Where releases aim: none, paging or rows.", valueName: "TARGET"))
    var scrollTarget: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The container to nest it in (\"\" for none): input it does not take goes there.", valueName: "CONTAINER"))
    var parent: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("A gesture pushing against an edge: auto (chains to the parent), contain or none.", valueName: "BEHAVIOUR"))
    var overscroll: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The default scroll anchor: top (the default) or bottom, which keeps the end in view as content grows (leading/trailing for a horizontal container).", valueName: "ANCHOR"))
    var anchor: String?

    @Option(parsing: .unconditionalSingleValue, help: ArgumentHelp("A [physics] key for this container (repeatable), e.g. profile=gtk.", valueName: "KEY=VALUE"))
    var physics: [PhysicsAssignment] = []

    @Option(parsing: .unconditional, help: ArgumentHelp("Animate the change (default: none, at once).", valueName: AnimationArgument.valueName), transform: AnimationArgument.parse)
    var animation: AnimationArgument?

    @OptionGroup var connection: ConnectionOptions

    var settings: [ConfigureSetting] {
        var settings = shape.settings
        func add(_ key: String, _ value: ProtocolValue?) {
            if let value { settings.append(ConfigureSetting(key: key, value: value)) }
        }
        add("scroll_target", scrollTarget.map { .string($0) })
        add("parent", parent.map { .string($0) })
        add("overscroll", overscroll.map { .string($0) })
        add("anchor", anchor.map { .string($0) })
        if !physics.isEmpty { add("physics", .object(physics.map { ($0.key, $0.value) })) }
        return settings
    }

    func run() throws {
        let operation = Operation.configure(container: container, settings: settings, animation: animation?.animation)
        try connection.requestOK(operation)
    }
}

/// The container a command that only acts on it names, and the connection its request goes on:
/// `remove`, `resume` and the refresh commands differ in nothing but the request.
struct ContainerRequest: ParsableArguments {
    @Argument(help: "The container.")
    var container: String

    @OptionGroup var connection: ConnectionOptions

    /// Sends the container's request; `ok` is the only good answer.
    func send(_ operation: (_ container: String) -> Operation) throws {
        try connection.requestOK(operation(container))
    }
}

struct Remove: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Remove a container that a client created.",
        discussion: "Its subscribers are told and their subscriptions end. Containers of the configuration file stay."
    )

    @OptionGroup var request: ContainerRequest

    func run() throws { try request.send(Operation.remove) }
}

struct Pause: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Stop routing input to a container while this command runs.",
        discussion: """
            The daemon undoes a pause when the connection that made it closes: so \
            `scrollctl pause CONTAINER` holds its connection, and the pause, until it is \
            interrupted (Ctrl-C, SIGTERM: status 0, the way to end it) or the daemon goes away \
            (status 69). A container others paused too stays paused until the last of them \
            ends; `scrollctl resume CONTAINER` resumes it at once, whoever paused it, and then \
            this command ends too (status 0), as it does with status 1 when the container is \
            removed.
            """
    )

    @OptionGroup var request: ContainerRequest

    func run() throws {
        let container = request.container
        try request.connection.requestHeld(.pause(container: container), holding: "\(Output.shown(container)) paused until interrupted") { daemon throws(ClientFailure) in
            try Self.followUntilResumed(container, on: daemon, timeout: request.connection.timeoutDuration)
        }
    }

    /// Follows the container's states until one is not paused: another client resumed it (a
    /// `resume` ends every holder's pause), and there is nothing left to hold. Its removal ends
    /// the pause too, as it ends a `watch` (status 1).
    static func followUntilResumed(_ container: String, on daemon: DaemonConnection, timeout: Duration) throws(ClientFailure) {
        let subscribe = Operation.subscribe(container: container, rate: nil)
        var message = try daemon.request(subscribe, timeout: timeout)
        while true {
            switch message.reply {
            case .state(let line) where line.container == container && !line.paused:
                Output.error("\(Output.shown(container)) was resumed by another client: the pause is over")
                return
            case .removed(let name) where name == container:
                throw Watch.removed(container)
            default:
                break
            }
            message = try daemon.nextMessage()
        }
    }
}

struct Resume: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Route input to a paused container again, whoever paused it.")

    @OptionGroup var request: ContainerRequest

    func run() throws { try request.send(Operation.resume) }
}

struct BeginRefresh: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "begin-refresh",
        abstract: "Start a container's pull to refresh without a pull.",
        discussion: "The container needs a refresh key (docs/config.md); nothing moves, and the top of its resting range lies the refresh's height further up until end-refresh."
    )

    @OptionGroup var request: ContainerRequest

    func run() throws { try request.send(Operation.beginRefresh) }
}

struct EndRefresh: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "end-refresh",
        abstract: "End a container's refresh: it springs back to the top."
    )

    @OptionGroup var request: ContainerRequest

    func run() throws { try request.send(Operation.endRefresh) }
}

struct Focus: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Give the focus to a container, or take it away.",
        discussion: """
            While a container has the focus, input that is not bound to a container by device \
            goes to it only, and on along its parents for what it does not take. \
            The focus is the daemon's: the last focus request wins, whoever sent it. It ends when \
            its container is removed, or when the connection that set it closes: \
            so `scrollctl focus CONTAINER` holds its connection, and the focus, until it is \
            interrupted (Ctrl-C, SIGTERM: status 0, the way to end it) or the daemon goes away \
            (status 69). `scrollctl focus --none` clears the focus, whoever set it, and returns \
            at once. A focus another client moved or cleared is no longer this command's to \
            undo; it goes on running (the daemon tells no one that the focus moved) until it \
            is interrupted, which then changes nothing.
            """
    )

    @Argument(help: "The container to focus.")
    var container: String?

    @Flag(help: "Clear the focus: every container without a parent gets all input again.")
    var none = false

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if (container == nil) == !none { throw ValidationError("give a container to focus, or --none") }
    }

    func run() throws {
        guard let container, !none else { return try connection.requestOK(.focus(container: nil)) }
        try connection.requestHeld(.focus(container: container), holding: "focus on \(Output.shown(container)) until interrupted")
    }
}

struct Reload: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Make the daemon re-read its configuration.",
        discussion: "Exits 1 when the new configuration is refused; the last good one then stays in force."
    )

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.request(.reload) { message, _ throws(ClientFailure) in
            guard case .reloaded(_, let result) = message.reply else { throw .unexpected(message, for: .reload) }
            guard result.ok else {
                throw ClientFailure("reload refused: \(result.message) (the last good configuration stays in force)",
                                    status: .daemonError)
            }
            Output.write("reloaded \(result.message)\n")
        }
    }
}

struct Ping: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Check that the daemon answers, and how fast.")

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.run { daemon throws(ClientFailure) in
            let clock = ContinuousClock()
            let sent = clock.now
            let message = try daemon.request(.ping, timeout: connection.timeoutDuration)
            let elapsed = sent.duration(to: clock.now)
            guard case .pong = message.reply else { throw .unexpected(message, for: .ping) }
            let (seconds, attoseconds) = elapsed.components
            let milliseconds = Double(seconds) * 1000 + Double(attoseconds) / 1e15
            Output.write("pong from \(daemon.server ?? "scrolld") in \(Format.fixed(milliseconds, 3)) ms\n")
        }
    }
}
