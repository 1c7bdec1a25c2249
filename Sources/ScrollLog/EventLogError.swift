import ScrollJSON

/// Why an event log cannot be read, and on which line; `description` is the one-line message
/// for users, e.g. `line 7: expected ',' or '}' at column 31`.
public struct EventLogError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What kind of line the problem is in.
    public enum Record: Hashable, Sendable, CustomStringConvertible {
        case header
        /// An event, with its `type` once known.
        case event(type: String?)

        public var description: String {
            switch self {
            case .header: return "header"
            case .event(nil): return "event"
            case .event(let type?): return "event \(quoted(type))"
            }
        }
    }

    public enum Problem: Hashable, Sendable {
        /// The line is not valid JSON.
        case syntax(JSONError)
        /// Line 1 is not the event log header (or the input is empty).
        case notAnEventLog
        /// The header declares a version other than 1; the payload is its JSON text.
        case unsupportedVersion(String)
        /// A required key is absent.
        case missingKey(String, in: Record)
        /// A key's value has the wrong type or range: `expected` says what it must be,
        /// `found` is its JSON text (shortened).
        case invalidValue(key: String, in: Record, expected: String, found: String)
    }

    /// The 1-based line number.
    public var line: Int
    public var problem: Problem

    public init(line: Int, problem: Problem) {
        self.line = line
        self.problem = problem
    }

    public var description: String {
        "line \(line): \(problemDescription)"
    }

    private var problemDescription: String {
        switch problem {
        case .syntax(let error):
            return error.description
        case .notAnEventLog:
            return "not a scrolld event log (expected header {\"format\":\"\(EventLogHeader.formatName)\",\"version\":\(EventLogHeader.currentVersion),...})"
        case .unsupportedVersion(let version):
            return "unsupported event log version \(version) (this reader supports version \(EventLogHeader.currentVersion))"
        case .missingKey(let key, let record):
            return "\(record) is missing \(quoted(key))"
        case .invalidValue(let key, let record, let expected, let found):
            return "\(record) has an invalid \(quoted(key)): expected \(expected), got \(found)"
        }
    }
}
