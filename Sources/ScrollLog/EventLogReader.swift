import ScrollJSON
import ScrollModel

/// Reads an event log held in memory, one event at a time. (To stream a file through a fixed
/// buffer instead, split it into lines and use `EventLogParser` directly.)
public struct EventLogReader: Sendable {
    public let bytes: [UInt8]
    private var lines = LineCursor()
    /// The number of the line read last (1-based; 0 before the first).
    public var lineNumber: Int { lines.lineNumber }
    private var parser = EventLogParser()

    public init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    public init(text: String) {
        self.init(bytes: Array(text.utf8))
    }

    /// The header, once read (`readHeader()` or the first `next`).
    public var header: EventLogHeader? { parser.header }

    /// Reads line 1, which must be the header.
    public mutating func readHeader() throws(EventLogError) -> EventLogHeader {
        if let header { return header }
        guard let line = nextLine() else {
            throw EventLogError(line: 1, problem: .notAnEventLog)
        }
        guard case .header(let header) = try parse(line) else {
            // Unreachable: a parser without a header parses its first line as one.
            throw EventLogError(line: lineNumber, problem: .notAnEventLog)
        }
        return header
    }

    /// The next event, or nil at the end of the log. Skipped lines (unknown event types, a
    /// truncated last line) are reported to `warning` and the reading goes on; request lines
    /// (docs/design.md §17) are passed over: this reader yields input only.
    public mutating func next(warning: (EventLogWarning) -> Void = { _ in }) throws(EventLogError) -> ScrollEvent? {
        while let line = try nextLine(warning: warning) {
            if case .event(let event) = line { return event }
        }
        return nil
    }

    /// The next event or request line, or nil at the end of the log; skipped lines are
    /// reported to `warning`.
    public mutating func nextLine(warning: (EventLogWarning) -> Void = { _ in }) throws(EventLogError) -> EventLogLine? {
        _ = try readHeader()
        while let line = nextLine() {
            let parsed = try parse(line)
            switch parsed {
            case .event, .request: return parsed
            case .warning(let skipped): warning(skipped)
            case .header, .skip: continue
            }
        }
        return nil
    }

    /// The next line's range, and whether it is an unterminated last line.
    private mutating func nextLine() -> (range: Range<Int>, isLast: Bool)? {
        lines.next(in: bytes)
    }

    private mutating func parse(_ line: (range: Range<Int>, isLast: Bool)) throws(EventLogError) -> EventLogLine {
        let bytes = self.bytes
        let number = lineNumber
        return try bytes.withUnsafeBytes { raw in
            Result { () throws(EventLogError) in
                try parser.parse(line: UnsafeRawBufferPointer(rebasing: raw[line.range]), lineNumber: number, isLast: line.isLast)
            }
        }.get()
    }
}
