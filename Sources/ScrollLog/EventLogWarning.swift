import ScrollJSON

/// A line an event log reader skipped, and why; the log is still usable.
public struct EventLogWarning: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// An event `type` this reader does not know (written by a newer recorder, say).
        case unknownEventType(String)
        /// The last line stops in the middle of its JSON and has no newline: what a recorder
        /// killed mid-write leaves. `error` says where it stops.
        case truncatedLastLine(JSONError)
        /// The log ends in NUL bytes, and no newline: what a file system leaves of blocks it had
        /// allocated but not written when the power went (with anything before them on that
        /// line, a truncated last line too).
        case trailingNulBytes(Int)
    }

    /// The 1-based line number.
    public var line: Int
    public var kind: Kind

    public init(line: Int, kind: Kind) {
        self.line = line
        self.kind = kind
    }

    public var description: String {
        switch kind {
        case .unknownEventType(let type):
            return "line \(line): skipped event of unknown type \(quoted(type))"
        case .truncatedLastLine(let error):
            return "line \(line): ignored truncated last line (\(error))"
        case .trailingNulBytes(let count):
            return "line \(line): ignored \(count) NUL bytes at the end of the log, and what they cut off (a power loss leaves them)"
        }
    }
}
