import ArgumentParser
import ScrollDaemon
import ScrollConfig
import ScrollLog
import ScrollTranscript
import ScrollModel
import ScrollPlot
import ScrollProtocol
import ScrollSession
import SystemPackage

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Run an event log through the engine as fast as possible and print its states, or plot them.",
        discussion: """
            Prints one JSON state line (docs/protocol.md) after every input event and at every frame \
            while in motion; --every and --at sample at chosen times instead. LOG may also be a \
            `libinput debug-events` transcript, detected and imported whole (at most 1 GiB) before \
            it is replayed. The output is what a live subscriber would have seen, byte for byte \
            the same on every run.

            --plot FILE draws the replay as an SVG chart instead (- writes it to standard \
            output): offset, velocity and header height over time, the phases as coloured \
            bands, input events as ticks per source with scroll stops circled, and the frames; \
            the title names the log, the container and its physics. It composes with the \
            container options (compare --profile ios and gtk, or --set physics.KEY=VALUE) and \
            with --every, which samples the curves at a fixed interval instead of at frames.
            """
    )

    @Argument(help: ArgumentHelp("The event log (.scrolllog); - reads standard input.", valueName: "LOG"))
    var log: String

    @Option(parsing: .unconditional, help: ArgumentHelp("Replay under this configuration file (its containers, physics and [input] rules) instead of the built-in defaults; the container options override it.", valueName: "FILE"))
    var config: String?

    @OptionGroup(title: "Container")
    var model: ModelOptions

    @Option(parsing: .unconditional, help: ArgumentHelp("Print one state per listed time, in seconds after the first event.", valueName: "T1,T2,..."))
    var at: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Print a state every MS milliseconds from the first event until all is idle (leaving out an idle stretch of over 600 s before a line).", valueName: "MS"))
    var every: Double?

    @Option(parsing: .unconditional, help: ArgumentHelp("Give the focus to container NAME before the first event, as a focus request would.", valueName: "NAME"))
    var focus: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("Draw the replay as an SVG chart into FILE (- for standard output) instead of printing states.", valueName: "FILE"))
    var plot: String?

    func validate() throws {
        if at != nil && every != nil { throw ValidationError("--at and --every exclude each other") }
        if at != nil && plot != nil {
            throw ValidationError("--plot draws the whole replay and excludes --at; use --every MS to sample at a fixed interval")
        }
        if plot?.isEmpty == true { throw ValidationError("--plot expects a file name, or - for standard output") }
        // Bounded as --at is (``Limits/magnitude`` s), so that every instant stays a whole
        // number of µs.
        if let every, !(every > 0 && every < Limits.magnitude * 1000) { throw ValidationError("--every expects milliseconds more than 0 and less than 1e12, got \(every)") }
        _ = try atOffsets()
    }

    func atOffsets() throws -> [Timestamp]? {
        guard let at else { return nil }
        var offsets: [Timestamp] = []
        for part in at.split(separator: ",", omittingEmptySubsequences: false) {
            guard let seconds = Double(part.filter { $0 != " " }), seconds.isFinite, seconds >= 0, seconds < Limits.magnitude else {
                throw ValidationError("--at expects seconds from 0 to less than 1e9 separated by commas, got '\(part)'")
            }
            offsets.append(Timestamp((seconds * 1_000_000).rounded()))
        }
        return offsets.sorted()
    }

    func run() throws {
        var configuration = Configuration.defaults
        if let config {
            configuration = try ConfigurationFileSource.loadForDevices(config: config, environment: [:])
        }
        try model.apply(to: &configuration)
        // A container the options do not define may be one a recorded session creates.
        var container: ContainerConfiguration?
        do {
            if configuration.container(named: model.container) != nil {
                container = try configuration.resolve(container: model.container)
            }
        } catch {
            throw ValidationError(error.description)
        }
        let mode: ReplayMode
        if let offsets = try atOffsets() {
            mode = .at(offsets)
        } else if let every {
            mode = .every(max(1, Timestamp((every * 1000).rounded())))
        } else {
            mode = .everyState
        }
        if let plot {
            var replayer = try makeReplayer(configuration, mode: mode, sink: PlotSink())
            try feed(&replayer)
            let description = PlotSeries.Description(
                logName: log == "-" ? "standard input" : String(log.split(separator: "/").last ?? Substring(log)),
                container: model.container,
                configuration: replayer.configuration ?? container ?? ContainerConfiguration(),
                frameRate: replayer.session.engine.frameRate,
                sampleInterval: every,
                overrides: model.assignments
            )
            let series = replayer.sink.recorder.series(description)
            if series.isEmpty {
                standardError("scrolld: \(log): no input event reached container '\(model.container)'; the plot says so")
            }
            try FileDescriptor.writeOutput(
                PlotRenderer().render(series).utf8, to: plot, creating: "the plot \(plot)", writing: "the plot to \(plot)"
            )
        } else {
            var replayer = try makeReplayer(configuration, mode: mode, sink: StatePrinter(container: model.container, output: .standardOutput))
            try feed(&replayer)
        }
    }

    func makeReplayer<Sink>(_ configuration: Configuration, mode: ReplayMode, sink: Sink) throws -> Replayer<Sink> {
        var replayer: Replayer<Sink>
        do {
            replayer = try Replayer(container: model.container, configuration: configuration, mode: mode, sink: sink, everyContainer: focus != nil)
        } catch {
            throw ValidationError(error.description)
        }
        if let focus {
            do throws(ProtocolError) {
                try replayer.apply(.request(.focus(container: focus), client: 0, at: 0))
            } catch {
                throw ValidationError("--focus: \(error.message)")
            }
        }
        return replayer
    }

    /// Reads the log (or transcript) into the replayer and finishes it.
    func feed<Sink>(_ replayer: inout Replayer<Sink>) throws {
        var reader: LineReader
        do {
            reader = try LineReader(path: log)
        } catch {
            standardError("scrolld: cannot open \(log): \(error)")
            throw ExitCode(66)
        }
        defer { reader.close() }
        do {
            try read(&reader, into: &replayer)
        } catch {
            // What was replayed before the failure is printed before the failure is told.
            replayer.sink.flush()
            let failure = Self.readFailure(error, log: log)
            standardError(failure.message)
            throw ExitCode(failure.status)
        }
        // The command line names a container that is nowhere: a usage error, as --focus's.
        guard replayer.containerExists else {
            throw ValidationError("--container: no container \(Configuration.quoted(model.container)): neither the configuration nor the requests in \(log) define it")
        }
        replayer.finish()
    }

    /// What a log that cannot be read to its end says, and its exit status: 65 for a log that is
    /// not well formed; an opened file that cannot be read is a directory (66) or a failed read (74).
    static func readFailure(_ error: any Error, log: String) -> (message: String, status: Int32) {
        switch error {
        case let error as EventLogError: ("scrolld: \(log): \(error)", 65)
        case let error as DebugEventsError: ("scrolld: \(log): libinput debug-events transcript: \(error)", 65)
        case let error as LineReader.LineTooLong: ("scrolld: \(log): \(error)", 65)
        case let error as Errno: ("scrolld: cannot read \(log): \(error)", error == .isDirectory ? 66 : 74)
        default: ("scrolld: \(log): \(error)", 65)
        }
    }

    /// The most of a `debug-events` transcript replayed, bytes: it is imported whole before it
    /// is replayed (a device's capabilities are known only at its end), so what it holds is
    /// kept. Hours of a busy touchpad's transcript fit.
    static let transcriptLimit = 1 << 30

    /// A transcript larger than ``transcriptLimit``.
    struct TranscriptTooLarge: Error, CustomStringConvertible {
        var description: String { "libinput debug-events transcript larger than \(Replay.transcriptLimit >> 20) MiB, more than is imported" }
    }

    /// Of each of a transcript's first lines, what tells a transcript from a mistaken file
    /// (``DebugEventsImporter/looksLikeTranscript(firstByteLines:)``: its start, the event
    /// header) is kept, not the whole line, which may be 256 MiB.
    static let detectedPrefix = 4096

    /// An event log starts with its JSON header; anything else is taken for a `libinput
    /// debug-events` transcript, imported whole (device capabilities are known only at its end)
    /// and then replayed.
    private func read<Sink>(_ reader: inout LineReader, into replayer: inout Replayer<Sink>) throws {
        var parser = EventLogParser()
        var transcript: DebugEventsImporter?
        var firstLines: [[UInt8]] = []
        var transcriptBytes = 0
        try reader.forEachLine { line, number, isLast in
            if number == 1, !Self.startsLikeJSON(line) { transcript = DebugEventsImporter() }
            if transcript != nil {
                if firstLines.count < 100 { firstLines.append(Array(line.prefix(Self.detectedPrefix))) }
                transcriptBytes += line.count + 1
                guard transcriptBytes <= Self.transcriptLimit else { throw TranscriptTooLarge() }
                try transcript!.feed(line: line, lineNumber: number, isLast: isLast)
                return
            }
            switch try parser.parse(line: line, lineNumber: number, isLast: isLast) {
            case .event(let event): replayer.feed(event)
            case .request(let request):
                do throws(ProtocolError) {
                    try replayer.feed(request)
                } catch {
                    standardError("scrolld: \(log): line \(number): recorded request not applied: \(error.message)")
                }
            case .warning(let message): standardError("scrolld: \(log): \(message)")
            case .header, .skip: break
            }
        }
        if let transcript {
            let imported = transcript.finish()
            guard !imported.events.isEmpty || DebugEventsImporter.looksLikeTranscript(firstByteLines: firstLines) else {
                // Neither kind: report it as the event log it was meant to be.
                _ = try parser.parse(line: firstLines.first ?? [], lineNumber: 1)
                return
            }
            for warning in imported.warnings { standardError("scrolld: \(log): \(warning)") }
            for event in imported.events { replayer.feed(event) }
        }
        // An empty file is no event log (docs/event-log.md): it has no header.
        if parser.header == nil, transcript == nil { _ = try parser.parse(line: [], lineNumber: 1) }
    }
}

extension Replay {
    /// Whether a line opens a JSON object (after an optional byte-order mark and spaces).
    static func startsLikeJSON(_ line: UnsafeRawBufferPointer) -> Bool {
        var bytes = line[...]
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        return bytes.first { $0 != 0x20 && $0 != 0x09 } == UInt8(ascii: "{")
    }
}

