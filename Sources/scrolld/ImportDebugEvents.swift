import ArgumentParser
import FoundationEssentials
import ScrollLog
import ScrollTranscript
import ScrollModel
import SystemPackage

/// `scrolld import-debug-events IN OUT`: a `libinput debug-events` transcript (any layout, see
/// docs/event-log.md) to an event log v1.
struct ImportDebugEvents: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import-debug-events",
        abstract: "Convert a libinput debug-events transcript to an event log.",
        discussion: """
            Reads the output of `libinput debug-events` (libinput 1.0 and later: POINTER_AXIS \
            lines up to 1.18, POINTER_SCROLL_* lines from 1.19, with the repeat-count column \
            from 1.27) and writes its scroll, hold and device events as an event log (format \
            version 1). Other lines (other events, libinput messages, blank lines) are skipped \
            and counted on standard error. Exits with status 65 and the line number on a line \
            that names a scroll event but does not read as one; nothing is written then.
            """
    )

    @Argument(help: ArgumentHelp("The transcript; - reads standard input.", valueName: "IN"))
    var input: String

    @Argument(help: ArgumentHelp("The event log to write (.scrolllog); - writes standard output.", valueName: "OUT"))
    var output: String

    func run() throws {
        // The header names the file, not the directories it sits in (logs travel in bug reports).
        let name = input == "-" ? "standard input" : (input.split(separator: "/").last.map(String.init) ?? input)
        let shown = input == "-" ? "standard input" : input
        var reader: LineReader
        do {
            reader = try LineReader(path: input)
        } catch {
            standardError("scrolld: cannot open \(input): \(error)")
            throw ExitCode(66)  // EX_NOINPUT
        }
        defer { reader.close() }

        var importer = DebugEventsImporter()
        var firstContent: UInt8?
        do {
            try reader.forEachLine { line, number, isLast in
                if firstContent == nil, let byte = line.first(where: { $0 != 0x20 && $0 != 0x09 && $0 != 0x0D }) {
                    firstContent = byte
                }
                try importer.feed(line: line, lineNumber: number, isLast: isLast)
            }
        } catch let error as DebugEventsError {
            standardError("scrolld: \(shown): \(error)")
            throw ExitCode(65)  // EX_DATAERR
        } catch let error as LineReader.LineTooLong {
            standardError("scrolld: \(shown): \(error)")
            throw ExitCode(65)
        } catch {
            standardError("scrolld: cannot read \(input): \(error)")
            throw ExitCode(74)  // EX_IOERR
        }
        let result = importer.finish()
        for warning in result.warnings {
            standardError("scrolld: \(shown): \(warning)")
        }
        let skipped = result.skipped
        if result.events.isEmpty, skipped.otherEvents.isEmpty, skipped.otherDevices == 0 {
            let hint = firstContent == UInt8(ascii: "{") ? " (it looks like an event log already)" : ""
            standardError("scrolld: \(shown): not a libinput debug-events transcript: no event lines\(hint)")
            throw ExitCode(65)
        }

        let log = result.eventLog(created: RFC3339.now(), transcript: name)
        try FileDescriptor.writeOutput(log.serialized(), to: output, creating: output, writing: output, quietOnClosedPipe: true)

        let devices = result.events.count(where: { if case .deviceAdded = $0.kind { true } else { false } })
        let layout = result.layout.map { ", \($0)" } ?? ", no scroll lines"
        let events = "\(result.events.count) \(result.events.count == 1 ? "event" : "events")"
        let from = "\(devices) \(devices == 1 ? "device" : "devices")"
        let lines = "\(skipped.total) \(skipped.total == 1 ? "line" : "lines")"
        let summary = skipped.total == 0 ? "" : "; skipped \(lines): \(skipped.summary)"
        standardError("scrolld: \(shown): \(events) from \(from)\(layout)\(summary)")
    }
}
