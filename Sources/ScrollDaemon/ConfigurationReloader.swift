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
    /// The last text read and what it gave, refused or not: the same text is not parsed again.
    private var lastParsed: (file: String?, text: String?, result: Result<Configuration, ConfigurationError>)?
    /// The last reload that put a text in force, with its result and the core's count of
    /// commands changing containers after it: while the text and the count are the same, a
    /// reload would change nothing, and it is answered with that result at no cost. A client
    /// pipelining reloads, or a burst of SIGHUPs, costs a read of the file each.
    private var lastInForce: (file: String?, text: String?, commands: Int, result: ReloadResult)?
    /// Whether the last reload had the result of the one before (the callers log it once).
    private(set) var repeated = false
    private var lastResult: ReloadResult?

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
        let result = reloadNow(into: core)
        repeated = result == lastResult
        lastResult = result
        return result
    }

    private func reloadNow(into core: DaemonCore) -> ReloadResult {
        if let file = fileInForce, !ConfigurationSearchPath.fileExists(file) {
            return ReloadResult(
                ok: false, file: file,
                message: "\(file): the configuration file in force was removed; keeping it (write the file again, or restart scrolld to use another)"
            )
        }
        let configuration: Configuration
        let (text, file): (String?, String?)
        do throws(ConfigurationError) {
            (text, file) = try source.read()
            if let last = lastInForce, last.file == file, last.text == text, last.commands == core.commandsChangingContainers {
                return last.result
            }
            configuration = try parse(text, file: file)
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
            let result = ReloadResult(ok: true, file: file, message: "\(file ?? "built-in defaults"): \(configuration.containers.count) containers\(later)\(warnings)")
            lastInForce = (file, text, core.commandsChangingContainers, result)
            return result
        } catch {
            // What the file could not be put in force beside (the clients' containers): no
            // line of the file is to blame.
            return ReloadResult(ok: false, file: source.explicitPath, message: error.message)
        }
    }

    /// What `text` gives, parsed once however often it is read.
    private func parse(_ text: String?, file: String?) throws(ConfigurationError) -> Configuration {
        if let last = lastParsed, last.file == file, last.text == text { return try last.result.get() }
        let result = Result { () throws(ConfigurationError) in try source.parse(text, file: file) }
        lastParsed = (file, text, result)
        return try result.get()
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
