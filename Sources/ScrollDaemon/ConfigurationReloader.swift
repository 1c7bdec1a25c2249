import NIOCore
import ScrollConfig
import ScrollProtocol

/// Where the configuration in force came from, and reloading it (docs/design.md §8): the same
/// place is read again, and the `[daemon]` and `[web]` keys that take effect only at the next
/// start are named, against the settings the daemon started with.
///
/// The file is read and parsed off the loop (``DaemonCore/background``): a legal file may be
/// tens of megabytes, and every client would wait for it. What it gives is put in force on the
/// loop, between two other commands, as any command is. One read is under way at a time;
/// whoever asks meanwhile shares the read after it (the file may have changed since the one
/// under way began), so a burst of reloads costs two reads at the most.
package final class ConfigurationReloader {
    let source: ConfigurationFileSource
    /// The file the configuration in force came from (nil: the built-in defaults).
    private(set) var fileInForce: String?
    /// `[daemon]` as the daemon started with it: its socket, input and threads stay so.
    let daemonAtStart: DaemonSettings
    /// `[web]` as the daemon started with it: the listener's address stays so.
    let webAtStart: WebSettings
    /// The last text read and what it gave, refused or not: the same text is not parsed again.
    private var lastParsed: ParsedText?
    /// The last reload that put a text in force, with its result and the core's count of
    /// commands changing containers after it: while the text and the count are the same, a
    /// reload would change nothing, and it is answered with that result at no cost. A client
    /// pipelining reloads, or a burst of SIGHUPs, costs a read of the file each.
    private var lastInForce: (text: ParsedText, commands: Int, result: ReloadResult)?
    /// Whether the last reload had the result of the one before (the callers log it once).
    private(set) var repeated = false
    private var lastResult: ReloadResult?
    /// Whether a read is under way off the loop.
    private var reading = false
    /// The reload asked for while a read was under way, answered by the read after it.
    private var nextRead: EventLoopPromise<ReloadResult>?

    init(source: ConfigurationFileSource, startedWith configuration: Configuration, from file: String?) {
        self.source = source
        fileInForce = file
        daemonAtStart = configuration.daemon
        webAtStart = configuration.web
    }

    /// Reads the configuration again; a bad one is reported and the last good one stays. The
    /// future completes on the core's loop once the result is in force, or refused.
    ///
    /// The file in force having disappeared counts as bad too, also when the search path would
    /// now find another file (or none): a configuration vanishing for a moment (an editor's
    /// save, a sync tool) must not silently put the defaults in force. Going back to the
    /// defaults on purpose is an empty file, or a restart.
    func reload(into core: DaemonCore) -> EventLoopFuture<ReloadResult> {
        if reading {
            let next = nextRead ?? core.eventLoop.makePromise(of: ReloadResult.self)
            nextRead = next
            return next.futureResult
        }
        let promise = core.eventLoop.makePromise(of: ReloadResult.self)
        read(into: core, answering: promise)
        return promise.futureResult
    }

    private func read(into core: DaemonCore, answering promise: EventLoopPromise<ReloadResult>) {
        reading = true
        let source = self.source, fileInForce = self.fileInForce
        let lastParsed = self.lastParsed, textInForce = lastInForce?.text
        core.background.run(
            { TextRead(source: source, fileInForce: fileInForce, lastParsed: lastParsed, textInForce: textInForce) },
            completingOn: core.eventLoop
        ).assumeIsolated().whenComplete { outcome in
            let result: ReloadResult
            switch outcome {
            case .success(let read): result = self.putInForce(read, in: core)
            case .failure: result = ReloadResult(ok: false, file: fileInForce, message: "the daemon is stopping; the configuration was not read")
            }
            self.repeated = result == self.lastResult
            self.lastResult = result
            // The next read counts as under way before anyone hears this result: one who asks
            // for a reload on hearing it waits for the read after that one, never a second
            // read at the same time.
            let next = self.nextRead
            self.nextRead = nil
            self.reading = next != nil
            promise.succeed(result)
            if let next { self.read(into: core, answering: next) }
        }
    }

    /// Puts what the read found in force, on the loop.
    private func putInForce(_ read: TextRead, in core: DaemonCore) -> ReloadResult {
        let parsed: ParsedText
        switch read {
        case let .gone(file, how):
            return ReloadResult(
                ok: false, file: file,
                message: "\(file): the configuration file in force \(how); keeping it (write the file again, or restart scrolld to use another)"
            )
        case .unreadable(let error):
            return ReloadResult(ok: false, file: error.file ?? source.explicitPath, message: error.description)
        case .read(let text, let isInForce):
            parsed = text
            lastParsed = text
            if isInForce, let last = lastInForce, last.commands == core.commandsChangingContainers { return last.result }
        }
        let configuration: Configuration
        switch parsed.result {
        case .success(let value): configuration = value
        case .failure(let error): return ReloadResult(ok: false, file: error.file ?? source.explicitPath, message: error.description)
        }
        do throws(ProtocolError) {
            try apply(configuration, in: core)
        } catch {
            // What the file could not be put in force beside (the clients' containers): no
            // line of the file is to blame.
            return ReloadResult(ok: false, file: source.explicitPath, message: error.message)
        }
        fileInForce = parsed.file
        ConfigurationFileSource.logWarnings(of: configuration, to: core.logger)
        let waiting = configuration.daemon.startOnlyChanges(from: daemonAtStart) + configuration.web.startOnlyChanges(from: webAtStart)
        let later = waiting.isEmpty ? "" : "; \(waiting.joined(separator: ", ")) take\(waiting.count == 1 ? "s" : "") effect at the next start"
        let warnings = configuration.warnings.map { "; warning: \($0)" }.joined()
        let result = ReloadResult(
            ok: true, file: parsed.file, message: "\(parsed.file ?? "built-in defaults"): \(configuration.containers.count) container\(configuration.containers.count == 1 ? "" : "s")\(later)\(warnings)"
        )
        lastInForce = (parsed, core.commandsChangingContainers, result)
        return result
    }

    /// Puts a whole new configuration in force: containers it names are created or updated at
    /// once; containers created by clients and not in it stay as they are.
    private func apply(_ configuration: Configuration, in core: DaemonCore) throws(ProtocolError) {
        try core.execute(.reload(configuration, client: 0, at: core.eventLoop.timestamp))
        // A container the file now names is the file's: no connection's close removes it.
        for name in core.session.fileContainers {
            if let record = core.record(named: name) { core.connections.setOwner(of: record, to: nil) }
        }
        core.scheduler.input?.apply(configuration.input)
        core.finish()
        core.store?.containersChanged(.every)
    }
}

/// A configuration file's path and text (nil: none, the built-in defaults), and what it gives.
struct ParsedText: Sendable {
    var file: String?
    var text: String?
    var result: Result<Configuration, ConfigurationError>

    /// Whether this is `text` from `file`.
    func reads(_ text: String?, from file: String?) -> Bool {
        self.file == file && self.text == text
    }
}

/// What a reload finds, read and parsed off the loop.
enum TextRead: Sendable {
    /// The file in force is gone: removed, a directory in its place, or out of reach (a link
    /// loop, a directory that cannot be searched); `how` says which, as the reply says it.
    case gone(String, how: String)
    case unreadable(ConfigurationError)
    /// The text, parsed (or as the last read of the same text parsed it), and whether it is
    /// the text in force.
    case read(ParsedText, isInForce: Bool)

    init(source: ConfigurationFileSource, fileInForce: String?, lastParsed: ParsedText?, textInForce: ParsedText?) {
        // Neither falls back to what the search path finds next (the defaults, at worst).
        if let file = fileInForce, let how = ConfigurationSearchPath.whyNoFile(at: file) {
            self = .gone(file, how: how)
            return
        }
        do throws(ConfigurationError) {
            let (text, file) = try source.read()
            let result = lastParsed.flatMap { $0.reads(text, from: file) ? $0.result : nil }
                ?? Result { () throws(ConfigurationError) in try source.parse(text, file: file) }
            self = .read(ParsedText(file: file, text: text, result: result), isInForce: textInForce?.reads(text, from: file) ?? false)
        } catch {
            self = .unreadable(error)
        }
    }
}
