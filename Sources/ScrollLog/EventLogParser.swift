import ScrollJSON
import ScrollModel

/// Parses an event log (docs/design.md §3) one line at a time, so that a caller can stream a file
/// of any size through a fixed buffer. The first line given must be the header; every later one is
/// an event, a blank line, or something to skip with a warning.
public struct EventLogParser: Sendable {
    /// The header, once line 1 has been parsed.
    public private(set) var header: EventLogHeader?
    /// Whether `header` is set: tested on every line, where testing the optional header itself
    /// copied it (its strings retained and released, ~150 instructions a line).
    private var hasHeader = false

    public init() {}

    /// Parses one line (without its newline; a trailing "\r" or "\n" is tolerated).
    ///
    /// - Parameter isLast: true when this is the input's final line and no newline ends it.
    ///   Such a line that breaks off in the middle of its JSON is what a recorder killed
    ///   mid-write leaves; it is skipped with a warning instead of failing the whole log. The
    ///   same line anywhere else, or with its newline, is an error.
    public mutating func parse(line: UnsafeRawBufferPointer, lineNumber: Int, isLast: Bool = false) throws(EventLogError) -> EventLogLine {
        guard hasHeader else {
            let header = try HeaderLine.parse(line, lineNumber: lineNumber)
            self.header = header
            hasHeader = true
            return .header(header)
        }
        // NUL bytes end a line only where a power loss cut the file: the line is the last, with
        // no newline. Whatever came before them on it was cut off too.
        if isLast, line.last == 0 {
            let nuls = line.reversed().prefix { $0 == 0 }.count
            return .warning(EventLogWarning(line: lineNumber, kind: .trailingNulBytes(nuls)))
        }
        var probe = JSONScanner(line)
        if probe.isAtEnd() { return .skip }
        do {
            return try EventLine.parse(line, lineNumber: lineNumber)
        } catch {
            if isLast, case .syntax(let syntax) = error.problem, syntax.isUnexpectedEnd {
                return .warning(EventLogWarning(line: lineNumber, kind: .truncatedLastLine(syntax)))
            }
            throw error
        }
    }

    /// Parses one line given as any bytes (an array, a slice, a string's `utf8`, …).
    public mutating func parse<Bytes: Sequence<UInt8>>(line: Bytes, lineNumber: Int, isLast: Bool = false) throws(EventLogError) -> EventLogLine {
        let direct = line.withContiguousStorageIfAvailable { buffer in
            Result { () throws(EventLogError) in
                try parse(line: UnsafeRawBufferPointer(buffer), lineNumber: lineNumber, isLast: isLast)
            }
        }
        if let direct { return try direct.get() }
        let copy = Array(line)
        return try copy.withUnsafeBytes { buffer in
            Result { () throws(EventLogError) in
                try parse(line: buffer, lineNumber: lineNumber, isLast: isLast)
            }
        }.get()
    }
}

/// Line 1.
enum HeaderLine {
    static func parse(_ line: UnsafeRawBufferPointer, lineNumber: Int) throws(EventLogError) -> EventLogHeader {
        func fail(_ problem: EventLogError.Problem) -> EventLogError {
            EventLogError(line: lineNumber, problem: problem)
        }
        var scanner = JSONScanner(line)
        // A byte order mark is not JSON, but editors add one; it is harmless here.
        if line.count >= 3, line[0] == 0xEF, line[1] == 0xBB, line[2] == 0xBF { scanner.position = 3 }
        // Anything that does not even start like an object is some other file (a libinput
        // transcript, say): say so rather than point at a column.
        guard (try? scanner.peekValueKind()) == .object else { throw fail(.notAnEventLog) }
        var format: Int?
        var version: Int?
        var created: Int?
        var source: Int?
        do {
            try scanner.beginObject()
            while let key = try scanner.nextKey() {
                let offset = scanner.position
                if scanner.key(key, is: "format") {
                    format = offset
                } else if scanner.key(key, is: "version") {
                    version = offset
                } else if scanner.key(key, is: "created") {
                    created = offset
                } else if scanner.key(key, is: "source") {
                    source = offset
                }
                try scanner.skipValue()
            }
            try scanner.finish()
        } catch {
            throw fail(.syntax(error))
        }
        guard let format, string(&scanner, at: format) == EventLogHeader.formatName else { throw fail(.notAnEventLog) }
        guard let version else { throw fail(.missingKey("version", in: .header)) }
        scanner.position = version
        guard (try? scanner.peekValueKind()) == .number, let number = try? scanner.readNumber() else {
            throw fail(.invalidValue(key: "version", in: .header, expected: "an integer", found: found(scanner, at: version)))
        }
        guard number.integer == Int64(EventLogHeader.currentVersion) else {
            throw fail(.unsupportedVersion(scanner.text(number.range)))
        }
        return EventLogHeader(
            created: created.flatMap { string(&scanner, at: $0) },
            source: source.flatMap { string(&scanner, at: $0) }
        )
    }

    /// The string at `offset`, or nil for any other kind of value (tolerated, not required).
    private static func string(_ scanner: inout JSONScanner, at offset: Int) -> String? {
        scanner.position = offset
        guard (try? scanner.peekValueKind()) == .string else { return nil }
        return try? scanner.readString()
    }
}

/// The JSON text of the (already validated) value at `offset`, shortened for a message to
/// `limit` Unicode scalars (``scalarPrefix(_:limit:)``).
func found(_ scanner: JSONScanner, at offset: Int, limit: Int = 40) -> String {
    var scanner = scanner
    scanner.position = offset
    guard let range = try? scanner.skipValue() else { return "?" }
    let (head, isCut) = scalarPrefix(scanner.text(range), limit: limit)
    return isCut ? head + "…" : head
}
