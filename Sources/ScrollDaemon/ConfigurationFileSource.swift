import Logging
import ScrollConfig
import ScrollModel
import ScrollProtocol

/// Where the daemon's configuration comes from: `--config FILE`, or docs/design.md §8's search
/// path. Reloads read the same place again.
package struct ConfigurationFileSource: Sendable {
    package var explicitPath: String?
    package var environment: [String: String]
    /// Command-line overrides, applied on top of the file at start and at every reload.
    package var overrides: [(key: String, value: SettingValue)] = []
    /// Containers the command line names (`run --container NAME`): made with the built-in
    /// defaults when the file has none of that name, before the overrides apply.
    package var definedContainers: [String] = []

    package init(
        explicitPath: String?, environment: [String: String], overrides: [(key: String, value: SettingValue)] = [],
        definedContainers: [String] = []
    ) {
        self.explicitPath = explicitPath
        self.environment = environment
        self.overrides = overrides
        self.definedContainers = definedContainers
    }

    package func load() throws(ConfigurationError) -> (configuration: Configuration, file: String?) {
        let (text, file) = try read()
        return (try parse(text, file: file), file)
    }

    /// The file's path and text, as they are now: `--config`'s, or the first on the search
    /// path; nil (and no text) when the search path finds none.
    package func read() throws(ConfigurationError) -> (text: String?, file: String?) {
        guard let file = explicitPath ?? ConfigurationSearchPath(environment: environment).locate() else { return (nil, nil) }
        return (try Configuration.text(of: file), file)
    }

    /// The configuration `text` (nil: none, the built-in defaults) gives, the overrides on top.
    package func parse(_ text: String?, file: String?) throws(ConfigurationError) -> Configuration {
        var configuration = try Self.parseFile(text, file: file)
        try applyOverrides(to: &configuration)
        return configuration
    }

    /// The configuration `text` gives alone (nil: the built-in defaults).
    package static func parseFile(_ text: String?, file: String?) throws(ConfigurationError) -> Configuration {
        try text.map { text throws(ConfigurationError) in try Configuration.parse(text, file: file ?? "") } ?? .defaults
    }

    /// Puts the overrides on top of `configuration`, checked as a file's keys are once all are
    /// set (the physics they resolve to, every container, the nesting): an override may name
    /// a parent that does not exist, or a profile that does not fit with the file's physics.
    /// The daemon tells a failure here (its command line) from one of the file (its
    /// configuration) by calling this apart from ``parseFile(_:file:)``.
    package func applyOverrides(to configuration: inout Configuration) throws(ConfigurationError) {
        guard !overrides.isEmpty || !definedContainers.isEmpty else { return }
        for name in definedContainers where configuration.container(named: name) == nil {
            guard configuration.containers.count < Limits.containers else {
                throw ConfigurationError(key: "containers.\(name)", message: "too many containers: the daemon holds at most \(Limits.containers)")
            }
            configuration.defineContainer(name)
        }
        for (key, value) in overrides { try configuration.set(key, value) }
        _ = try configuration.resolvePhysics()
        for container in configuration.containers { _ = try configuration.resolve(container: container.name) }
        try configuration.checkNesting()
    }

    /// What the configuration accepts but its author should change (``Configuration/warnings``:
    /// deprecated spellings, and what applies to nothing), at start and at every reload.
    package static func logWarnings(of configuration: Configuration, to logger: Logger) {
        for warning in configuration.warnings { logger.warning("configuration: \(warning)") }
    }
}
