import Logging
import ScrollModel

/// `run --fallback-replay LOG`: the log, served in a loop while the seat has no usable input
/// device — at start, or once the last one leaves — and ended when one arrives.
///
/// It ends before the arrival goes in, its devices leaving first as at the end of a pass: the
/// log's device numbers and libinput's both count from 1, and the two must never meet in the
/// engine (a real wheel's clicks would join the log's gesture of the same number, and the log's
/// removal of its device would end the real one's).
package final class FallbackDemo {
    let source: ReplaySource
    let label: String
    unowned let scheduler: DeadlineScheduler
    let logger: Logger
    /// Whether the log is being served now.
    package private(set) var isServing = false

    package init(source: ReplaySource, label: String, scheduler: DeadlineScheduler, logger: Logger) {
        self.source = source
        self.label = label
        self.scheduler = scheduler
        self.logger = logger
    }

    /// Serves the log from its start (nothing if it is being served); `reason` is why, for the log.
    package func serve(because reason: String? = nil) {
        guard !isServing else { return }
        isServing = true
        logger.notice("DEMO: serving \(label) in a loop instead of real input\(reason.map { " (\($0))" } ?? "")")
        scheduler.replay = source
        source.start()
    }

    /// Ends the log's pass, its devices removed (nothing if it is not being served).
    package func end(because reason: String) {
        guard isServing else { return }
        isServing = false
        source.end()
        scheduler.replay = nil
        logger.notice("DEMO ends: \(reason)")
    }
}
