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

    package init(explicitPath: String?, environment: [String: String], overrides: [(key: String, value: SettingValue)] = []) {
        self.explicitPath = explicitPath
        self.environment = environment
        self.overrides = overrides
    }

    package func load() throws(ConfigurationError) -> (configuration: Configuration, file: String?) {
        var (configuration, file): (Configuration, String?)
        if let explicitPath {
            (configuration, file) = (try Configuration.load(contentsOf: explicitPath), explicitPath)
        } else {
            (configuration, file) = try ConfigurationSearchPath(environment: environment).load()
        }
        for (key, value) in overrides { try configuration.set(key, value) }
        return (configuration, file)
    }

    /// What the configuration accepts but its author should change (``Configuration/warnings``:
    /// deprecated spellings, and what applies to nothing), at start and at every reload.
    package static func logWarnings(of configuration: Configuration, to logger: Logger) {
        for warning in configuration.warnings { logger.warning("configuration: \(warning)") }
    }
}
