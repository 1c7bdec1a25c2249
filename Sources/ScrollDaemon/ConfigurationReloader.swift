import ScrollConfig
import ScrollProtocol

/// Where the configuration in force came from, and reloading it (docs/design.md §8): the same
/// place is read again, and the `[daemon]` and `[web]` keys that take effect only at the next
/// start are named, against the settings the daemon started with.
package final class ConfigurationReloader {
    let source: ConfigurationFileSource
    /// The file the configuration in force came from (nil: the built-in defaults).
    private(set) var fileInForce: String?
    /// `[daemon]` as the daemon started with it: its socket, input and threads stay so.
    let daemonAtStart: DaemonSettings
    /// `[web]` as the daemon started with it: the listener's address stays so.
    let webAtStart: WebSettings

    init(source: ConfigurationFileSource, startedWith configuration: Configuration, from file: String?) {
        self.source = source
        fileInForce = file
        daemonAtStart = configuration.daemon
        webAtStart = configuration.web
    }

    /// Reads the configuration again; a bad one is reported and the last good one stays.
    ///
    /// The file in force having disappeared counts as bad too, also when the search path would
    /// now find another file (or none): a configuration vanishing for a moment (an editor's
    /// save, a sync tool) must not silently put the defaults in force. Going back to the
    /// defaults on purpose is an empty file, or a restart.
    func reload(into core: DaemonCore) -> ReloadResult {
        if let file = fileInForce, !ConfigurationSearchPath.fileExists(file) {
            return ReloadResult(
                ok: false, file: file,
                message: "\(file): the configuration file in force was removed; keeping it (write the file again, or restart scrolld to use another)"
            )
        }
        let configuration: Configuration
        let file: String?
        do throws(ConfigurationError) {
            (configuration, file) = try source.load()
        } catch {
            return ReloadResult(ok: false, file: error.file ?? source.explicitPath, message: error.description)
        }
        do throws(ProtocolError) {
            try putInForce(configuration, in: core)
            fileInForce = file
            ConfigurationFileSource.logWarnings(of: configuration, to: core.logger)
            let waiting = configuration.daemon.startOnlyChanges(from: daemonAtStart)
                + configuration.web.startOnlyChanges(from: webAtStart)
            let later = waiting.isEmpty ? "" : "; \(waiting.joined(separator: ", ")) take\(waiting.count == 1 ? "s" : "") effect at the next start"
            let warnings = configuration.warnings.map { "; warning: \($0)" }.joined()
            return ReloadResult(ok: true, file: file, message: "\(file ?? "built-in defaults"): \(configuration.containers.count) containers\(later)\(warnings)")
        } catch {
            // What the file could not be put in force beside (the clients' containers): no
            // line of the file is to blame.
            return ReloadResult(ok: false, file: source.explicitPath, message: error.message)
        }
    }

    /// Puts a whole new configuration in force: containers it names are created or updated at
    /// once; containers created by clients and not in it stay as they are.
    private func putInForce(_ configuration: Configuration, in core: DaemonCore) throws(ProtocolError) {
        try core.execute(.reload(configuration, client: 0, at: core.eventLoop.timestamp))
        // A container the file now names is the file's: no connection's close removes it.
        for name in core.session.fileContainers { core.record(named: name)?.owner = nil }
        core.scheduler.input?.apply(configuration.input)
        core.finish()
        core.store?.containersChanged()
    }
}
