import ArgumentParser
import ScrollCommandLine
import ScrollProtocol

/// `scrollctl rows`: one row edit (docs/design.md §12) — rows inserted or removed while the rest
/// keep their heights, and the content on screen keeps its place (scroll anchoring).
struct Rows: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Insert or remove rows of a container's list.",
        discussion: """
            --insert K adds rows before row K (K = the row count appends): --count N rows of \
            --height H (default: the rows' height), or one row per --heights value. --remove K \
            --count N removes N rows from row K. The rows on screen keep their place, and a \
            bottom-anchored container resting at its end stays there.
            """
    )

    @Argument(help: "The container.")
    var container: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Insert before this row.", valueName: "K"))
    var insert: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("Remove from this row on.", valueName: "K"))
    var remove: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("How many rows (default 1).", valueName: "N"))
    var count: Int?

    @Option(parsing: .unconditional, help: ArgumentHelp("The inserted rows' height.", valueName: "H"))
    var height: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("The inserted rows' heights, one per row.", valueName: "H1,H2,..."))
    var heights: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Animate the change (default: none, at once).", valueName: AnimationArgument.valueName), transform: AnimationArgument.parse)
    var animation: AnimationArgument?

    @OptionGroup var connection: ConnectionOptions

    func validate() throws {
        guard (insert == nil) != (remove == nil) else { throw ValidationError("give one of --insert K or --remove K") }
        if let insert, insert < 0 { throw ValidationError("--insert expects a row index from 0 (the row count appends), got \(insert)") }
        if let remove, remove < 0 { throw ValidationError("--remove expects a row index from 0, got \(remove)") }
        if let count, count < 1 { throw ValidationError("--count expects a positive number") }
        if remove != nil, height != nil || heights != nil {
            throw ValidationError("--height and --heights apply to --insert")
        }
        if heights != nil, height != nil || count != nil {
            throw ValidationError("--heights gives one row per value: leave out --count and --height")
        }
        _ = try edit()
    }

    /// The `rows` value of the configure request.
    func edit() throws -> ProtocolValue {
        if let remove {
            return .object([("remove", .object([("at", .integer(remove)), ("count", .integer(count ?? 1))]))])
        }
        var members: [(String, ProtocolValue)] = [("at", .integer(insert ?? 0))]
        if let heights {
            var values: [ProtocolValue] = []
            for text in heights.split(separator: ",", omittingEmptySubsequences: false) {
                guard let value = protocolNumber(text) else {
                    throw ValidationError("--heights expects numbers separated by commas, got \"\(text)\"")
                }
                values.append(value)
            }
            members.append(("heights", .array(values)))
        } else {
            members.append(("count", .integer(count ?? 1)))
            if let height {
                guard height.isFinite else { throw ValidationError("--height expects a finite number") }
                members.append(("height", .double(height)))
            }
        }
        return .object([("insert", .object(members))])
    }

    func run() throws {
        let operation = Operation.configure(container: container, settings: [ConfigureSetting(key: "rows", value: try edit())],
                                            animation: animation?.animation)
        try connection.requestOK(operation)
    }
}
