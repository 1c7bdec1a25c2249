import ArgumentParser
import ScrollCommandLine
import ScrollConfig
import ScrollModel
import ScrollSession

/// The options that override the configuration for one container (docs/design.md §11), shared by
/// `replay` and `run`.
struct ModelOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp(
        "The container the other container options shape. replay prints its states; run creates it (the built-in defaults under these options) when the configuration has no container of that name.",
        valueName: "NAME"
    ))
    var container: String = "main"

    @OptionGroup var shape: ContainerShapeOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Physics profile: ios, gtk or none.", valueName: "PROFILE"))
    var profile: String?

    @Option(name: .customLong("set"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Any configuration key (repeatable), e.g. physics.wheel_animation=none.", valueName: "SECTION.KEY=VALUE"))
    var assignments: [String] = []

    /// A malformed `--set` or container name is a usage error before anything runs: ArgumentParser
    /// then shows the subcommand's usage.
    func validate() throws {
        guard !container.isEmpty, !container.contains(".") else {
            throw ValidationError("--container expects a name without '.', got '\(container)'")
        }
        do {
            _ = try overrides()
        } catch let error as ConfigurationError {
            throw ValidationError(error.description)
        }
    }

    /// The options as configuration assignments, dedicated ones first, then every `--set` in
    /// order (a daemon re-applies them on every reload).
    func overrides() throws -> [(key: String, value: SettingValue)] {
        let prefix = "containers.\(container)"
        var result: [(key: String, value: SettingValue)] = []
        for setting in shape.settings {
            result.append(("\(prefix).\(setting.key)", try setting.value.configurationValue(key: setting.key)))
        }
        if let profile { result.append(("physics.profile", .string(profile))) }
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "=") else {
                throw ValidationError("--set expects SECTION.KEY=VALUE, got '\(assignment)'")
            }
            result.append((String(assignment[..<equals]), SettingValue(parsing: assignment[assignment.index(after: equals)...])))
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
