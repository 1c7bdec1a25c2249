import ArgumentParser
import ScrollModel
import ScrollProtocol

/// `scrollctl observe`: docs/design.md §13's change-only observations, one line per change.
struct Observe: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a value derived from a container's state each time it changes.",
        discussion: """
            KEY is one of phase, contentOffset.x, contentOffset.y, velocity.x, velocity.y, \
            header.height, header.progress (these take --step), visibleRows, rowVisible \
            (--row, --threshold), nearEnd (--distance, --axis), atEdge (--edge), source (the \
            device whose input last moved it), stickyRow, refreshing. The first line \
            is the current value; after it one line per change, never otherwise. With --json, \
            the daemon's observation messages as they arrive (for widgets: waybar, eww).
            """
    )

    @Argument(help: "The container.")
    var container: String

    @Argument(help: "The value to observe.")
    var key: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Quantise numbers to multiples of this step.", valueName: "S"))
    var step: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("The row (rowVisible).", valueName: "N"))
    var row: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("The fraction of the row that must be visible (rowVisible; default 0.5).", valueName: "T"))
    var threshold: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Pixels from the end (nearEnd).", valueName: "D"))
    var distance: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("The axis (nearEnd): y or x.", valueName: "AXIS"))
    var axis: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The edge (atEdge): top, bottom, leading or trailing.", valueName: "EDGE"))
    var edge: String?

    @Flag(help: "Print the daemon's observation lines as they arrive.")
    var json = false

    @Option(parsing: .unconditional, help: ArgumentHelp("Exit after this many lines.", valueName: "N"))
    var count: Int?

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count expects a positive number") }
        _ = try observation()
    }

    /// The observation the arguments name, checked here as the daemon checks it.
    func observation() throws -> ScrollObservation {
        var options: [(name: String, value: ScrollObservation.Option)] = []
        if let step { options.append(("step", .number(step))) }
        if let row { options.append(("row", .integer(row))) }
        if let threshold { options.append(("threshold", .number(threshold))) }
        if let distance { options.append(("distance", .number(distance))) }
        if let axis { options.append(("axis", .string(axis))) }
        if let edge { options.append(("edge", .string(edge))) }
        do throws(ObservationError) {
            return try ScrollObservation(of: key, options: options)
        } catch {
            throw ValidationError(Self.describe(error, key: key))
        }
    }

    /// The model's error in this command's words: the option as it is spelt here, without the
    /// protocol's `("row": N)` hint.
    static func describe(_ error: ObservationError, key: String) -> String {
        guard error.option != "of" else { return "KEY: \(error.message)" }
        var message = error.message
        if let hint = message.firstRange(of: " (\"\(error.option)\":") { message = String(message[..<hint.lowerBound]) }
        return "--\(error.option): \(message)"
    }

    func run() throws {
        let id = RequestID("scrollctl")
        let operation = Operation.observe(container: container, observation: try observation(), id: id)
        try connection.run { daemon throws(ClientFailure) in
            try daemon.send(operation)
            var message = try daemon.reply(to: id, operation: operation, timeout: connection.timeoutDuration)
            var printed = 0
            while true {
                switch message.reply {
                case .observation(let observation) where observation.id == id:
                    if json {
                        Output.write(message.line + [UInt8(ascii: "\n")])
                    } else {
                        Output.write(Array(Self.describe(observation).utf8) + [UInt8(ascii: "\n")])
                    }
                    printed += 1
                    if let count, printed >= count { return }
                case .removed(let name) where name == container:
                    throw Watch.removed(container)
                case .error(let code, let text, nil):
                    throw DaemonConnection.failure(code: code, message: text)
                default:
                    break
                }
                message = try daemon.nextMessage()
            }
        }
    }

    /// `KEY = NEW (was OLD) at seq S`: one line per change.
    static func describe(_ message: ObservationMessage) -> String {
        var line = "\(message.of) = \(message.new)"
        if let old = message.old { line += " (was \(old))" }
        return line + " at seq \(message.seq)"
    }
}
