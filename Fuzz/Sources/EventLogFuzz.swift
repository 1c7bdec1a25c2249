import ScrollLog
import ScrollModel

/// The event log reader (`EventLog(parsing:)`, i.e. `EventLogReader` over `EventLogParser`) on
/// any bytes, as `scrolld replay` reads a file.
///
/// Invariants: a log that reads is written back by `EventLogWriter` to bytes that read to the
/// same log with no warnings, and writing that again gives the same bytes; errors and warnings
/// carry a line number of the input (warnings in increasing order, never on the header), and
/// their messages are one line.
enum EventLogFuzz {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let input = Array(bytes)
        let lines = lineCount(bytes)
        var warnings: [EventLogWarning] = []
        let log: EventLog
        do {
            log = try EventLog(parsing: input) { warnings.append($0) }
        } catch {
            require((1...max(lines, 1)).contains(error.line), "error on line \(error.line) of \(lines): \(error)")
            require(!error.description.contains("\n"), "a multi-line message: \(error)")
            return
        }
        var previous = 1
        for warning in warnings {
            require((previous...max(lines, 1)).contains(warning.line) && warning.line > 1, "warning on line \(warning.line) of \(lines)")
            require(!warning.description.contains("\n"), "a multi-line warning: \(warning)")
            previous = warning.line + 1
        }

        let written = log.serialized()
        var rewarnings: [EventLogWarning] = []
        let reread: EventLog
        do {
            reread = try EventLog(parsing: written) { rewarnings.append($0) }
        } catch {
            require(false, "the written log does not read: \(error)\n\(String(decoding: written, as: UTF8.self))")
            return
        }
        require(rewarnings.isEmpty, "the written log reads with warnings: \(rewarnings)")
        require(reread == log, "the written log reads differently:\n\(String(decoding: written, as: UTF8.self))")
        require(reread.serialized() == written, "writing the log again gives other bytes")
    }
}
