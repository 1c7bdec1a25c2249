import ScrollJSON
import ScrollModel

/// What one line of an event log holds.
public enum EventLogLine: Hashable, Sendable {
    /// Line 1.
    case header(EventLogHeader)
    case event(ScrollEvent)
    /// A request applied by a recorded live session (docs/design.md §17).
    case request(RecordedRequest)
    /// The line was skipped (unknown event type, truncated last line); the log goes on.
    case warning(EventLogWarning)
    /// A blank line, tolerated and ignored.
    case skip
}
