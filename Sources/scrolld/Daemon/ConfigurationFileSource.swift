import ScrollConfig
import ScrollProtocol

/// Where the daemon's configuration comes from: `--config FILE`, or DESIGN §8's search path.
/// Reloads read the same place again.
struct ConfigurationFileSource: Sendable {
    var explicitPath: String?
    var environment: [String: String]
    /// Command-line overrides, applied on top of the file at start and at every reload.
    var overrides: [(key: String, value: ConfigValue)] = []

    func load() throws(ConfigurationError) -> (configuration: Configuration, file: String?) {
        var (configuration, file): (Configuration, String?)
        if let explicitPath {
            (configuration, file) = (try Configuration.load(contentsOf: explicitPath), explicitPath)
        } else {
            (configuration, file) = try ConfigurationSearchPath(environment: environment).load()
        }
        for (key, value) in overrides { try configuration.set(key, value) }
        return (configuration, file)
    }
}

extension DaemonCore {
    /// Reads the configuration again; a bad one is reported and the last good one stays.
    func reload() -> ReloadResult {
        let source = configurationSource
        do {
            let (configuration, file) = try source.load()
            try apply(configuration)
            return ReloadResult(ok: true, file: file, message: "\(file ?? "built-in defaults"): \(configuration.containers.count) containers")
        } catch let error as ConfigurationError {
            return ReloadResult(ok: false, file: error.file ?? source.explicitPath, message: error.description)
        } catch {
            return ReloadResult(ok: false, file: source.explicitPath, message: "\(error)")
        }
    }
}
