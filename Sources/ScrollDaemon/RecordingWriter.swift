import Logging
import ScrollSession

/// Where the session's recording goes (`run --record`, `daemon.record`; docs/design.md §17):
/// after each turn of work, the lines the session recorded are written to their file. A write
/// that fails stops the recording with the reason in the log; the daemon itself goes on.
struct RecordingWriter {
    private var sink: (any RecordingSink)?
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    /// From now on, what `session` records goes to `sink`.
    mutating func start(_ sink: any RecordingSink) {
        self.sink = sink
    }

    /// Writes what `session` recorded since the last call.
    mutating func write(from session: inout Session) {
        guard let sink else { return }
        let lines = session.takeRecordedLines()
        guard !lines.isEmpty else { return }
        if let failure = sink.write(lines) {
            logger.error("recording stopped: cannot write \(sink.path): \(failure)")
            session.stopRecording()
            self.sink = nil
        }
    }
}
