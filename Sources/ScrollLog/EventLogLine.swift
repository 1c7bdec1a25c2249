import ScrollModel

/// What one line of an event log holds.
public enum EventLogLine: Hashable, Sendable {
    /// Line 1.
    case header(EventLogHeader)
    case event(ScrollEvent)
    /// The line was skipped (unknown event type, truncated last line); the log goes on.
    case warning(EventLogWarning)
    /// A blank line, tolerated and ignored.
    case skip
}
