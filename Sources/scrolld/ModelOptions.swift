import ArgumentParser
import ScrollConfig
import ScrollModel

/// The options that override the configuration for one container (docs/design.md §11), shared by
/// `replay` and `run`.
struct ModelOptions: ParsableArguments {
    @Option(help: "The container to drive and print.")
    var container: String = "main"

    @Option(name: .customLong("container-size"), help: ArgumentHelp("The container's size.", valueName: "WxH"))
    var containerSize: String?

    @Option(name: .customLong("content-size"), help: ArgumentHelp("The content's size.", valueName: "WxH"))
    var contentSize: String?

    @Option(help: ArgumentHelp("Content insets.", valueName: "TOP,LEADING,BOTTOM,TRAILING"))
    var insets: String?

    @Option(help: ArgumentHelp("Scrolled axes: vertical, horizontal or both.", valueName: "AXES"))
    var axes: String?

    @Option(help: ArgumentHelp("A collapsing header.", valueName: "MIN:MAX"))
    var header: String?

    @Option(help: ArgumentHelp("Rows of a list.", valueName: "COUNTxHEIGHT"))
    var rows: String?

    @Option(help: ArgumentHelp("Physics profile: ios, gtk or none.", valueName: "PROFILE"))
    var profile: String?

    @Option(name: .customLong("set"), help: ArgumentHelp("Any configuration key (repeatable), e.g. physics.wheel_animation=none.", valueName: "SECTION.KEY=VALUE"))
    var assignments: [String] = []

    /// The options as configuration assignments, dedicated ones first, then every `--set` in
    /// order (a daemon re-applies them on every reload).
    func overrides() throws -> [(key: String, value: ConfigValue)] {
        let prefix = "containers.\(container)"
        var result: [(key: String, value: ConfigValue)] = []
        if let containerSize { result.append(("\(prefix).containerSize", .string(containerSize))) }
        if let contentSize { result.append(("\(prefix).contentSize", .string(contentSize))) }
        if let insets { result.append(("\(prefix).insets", .string(insets))) }
        if let axes { result.append(("\(prefix).axes", .string(axes))) }
        if let header {
            let parts = header.split(separator: ":", omittingEmptySubsequences: false)
            guard parts.count == 2, let min = Double(parts[0]), let max = Double(parts[1]) else {
                throw ValidationError("--header expects MIN:MAX, got '\(header)'")
            }
            result.append(("\(prefix).header.min_height", .double(min)))
            result.append(("\(prefix).header.max_height", .double(max)))
        }
        if let rows {
            let parts = rows.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let count = Int(parts[0]), let height = Double(parts[1]) else {
                throw ValidationError("--rows expects COUNTxHEIGHT, got '\(rows)'")
            }
            result.append(("\(prefix).rows.count", .integer(count)))
            result.append(("\(prefix).rows.height", .double(height)))
        }
        if let profile { result.append(("physics.profile", .string(profile))) }
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "=") else {
                throw ValidationError("--set expects SECTION.KEY=VALUE, got '\(assignment)'")
            }
            result.append((String(assignment[..<equals]), ConfigValue(parsing: assignment[assignment.index(after: equals)...])))
        }
        return result
    }

    /// Applies the options to `configuration`.
    func apply(to configuration: inout Configuration) throws {
        do {
            for (key, value) in try overrides() { try configuration.set(key, value) }
            try configuration.checkNesting()
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
    }
}
