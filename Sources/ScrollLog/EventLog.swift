import ScrollJSON
import ScrollModel

/// A whole event log in memory: its header and its events in file order.
public struct EventLog: Hashable, Sendable {
    public var header: EventLogHeader
    public var events: [ScrollEvent]

    public init(header: EventLogHeader, events: [ScrollEvent]) {
        self.header = header
        self.events = events
    }

    /// Parses a whole log; skipped lines are reported to `warning`.
    public init(parsing bytes: [UInt8], warning: (EventLogWarning) -> Void = { _ in }) throws(EventLogError) {
        var reader = EventLogReader(bytes: bytes)
        let header = try reader.readHeader()
        var events: [ScrollEvent] = []
        while let event = try reader.next(warning: warning) { events.append(event) }
        self.init(header: header, events: events)
    }

    /// The log as a file: the header line and one line per event, each ending in a newline.
    public func serialized() -> [UInt8] {
        let writer = EventLogWriter()
        var bytes: [UInt8] = []
        writer.appendHeaderLine(header, to: &bytes)
        for event in events { writer.appendLine(event, to: &bytes) }
        return bytes
    }
}
