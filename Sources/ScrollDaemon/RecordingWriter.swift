import Logging
import ScrollSession

/// Where the session's recording goes (`run --record`, `daemon.record`; docs/design.md §17):
/// after each turn of work, the lines the session recorded are written to their file. A write
/// that fails stops the recording with the reason in the log; the daemon itself goes on. So does
/// one that would take the file past its limit (`daemon.record_limit_mb`): clients' requests are
/// recorded, and a client sending them as fast as it can would otherwise fill the disk.
struct RecordingWriter {
    private var sink: (any RecordingSink)?
    private let logger: Logger
    /// The most the file may hold, bytes, and what it holds.
    private var limit = Int.max
    private var written = 0

    init(logger: Logger) {
        self.logger = logger
    }

    /// From now on, what `session` records goes to `sink`.
    mutating func start(_ sink: any RecordingSink, limit: Int) {
        self.sink = sink
        self.limit = limit
        written = 0
    }

    /// Writes what `session` recorded since the last call.
    mutating func write(from session: inout Session) {
        guard let sink else { return }
        let lines = session.takeRecordedLines()
        guard !lines.isEmpty else { return }
        guard lines.count <= limit - written else {
            return stop(&session, "\(sink.path) would pass its limit of \(limit / 1_048_576) MiB (daemon.record_limit_mb); it replays up to here")
        }
        written += lines.count
        if let failure = sink.write(lines) {
            stop(&session, "cannot write \(sink.path): \(failure)")
        }
    }

    /// Ends the recording, saying why in the log; the session records nothing more.
    private mutating func stop(_ session: inout Session, _ reason: String) {
        logger.error("recording stopped: \(reason)")
        session.stopRecording()
        sink = nil
    }
}
