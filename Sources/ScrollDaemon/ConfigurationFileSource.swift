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

extension ConfigurationFileSource {
    /// Reads the configuration again; a bad one is reported and the last good one stays.
    ///
    /// The file in force having disappeared counts as bad too, also when the search path would
    /// now find another file (or none): a configuration vanishing for a moment (an editor's
    /// save, a sync tool) must not silently put the defaults in force. Going back to the
    /// defaults on purpose is an empty file, or a restart.
    func reload(into core: DaemonCore) -> ReloadResult {
        if let file = core.fileInForce, !ConfigurationSearchPath.fileExists(file) {
            return ReloadResult(
                ok: false, file: file,
                message: "\(file): the configuration file in force was removed; keeping it (write the file again, or restart scrolld to use another)"
            )
        }
        let configuration: Configuration
        let file: String?
        do throws(ConfigurationError) {
            (configuration, file) = try load()
        } catch {
            return ReloadResult(ok: false, file: error.file ?? explicitPath, message: error.description)
        }
        do throws(ProtocolError) {
            try core.apply(configuration)
            core.fileInForce = file
            ConfigurationFileSource.logWarnings(of: configuration, to: core.logger)
            let waiting = configuration.daemon.startOnlyChanges(from: core.daemonSettingsAtStart)
                + configuration.web.startOnlyChanges(from: core.webSettingsAtStart)
            let later = waiting.isEmpty ? "" : "; \(waiting.joined(separator: ", ")) take\(waiting.count == 1 ? "s" : "") effect at the next start"
            let warnings = configuration.warnings.map { "; warning: \($0)" }.joined()
            return ReloadResult(ok: true, file: file, message: "\(file ?? "built-in defaults"): \(configuration.containers.count) containers\(later)\(warnings)")
        } catch {
            // What the file could not be put in force beside (the clients' containers): no
            // line of the file is to blame.
            return ReloadResult(ok: false, file: explicitPath, message: error.message)
        }
    }
}
