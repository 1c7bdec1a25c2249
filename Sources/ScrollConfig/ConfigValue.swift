import TOML

/// A configuration value as TOML or a `--set` option gives it, before it is checked against the
/// key it is assigned to.
public enum ConfigValue: Hashable, Sendable {
    case string(String)
    case integer(Int)
    case double(Double)
    case bool(Bool)
    case array([ConfigValue])
    case table([(String, ConfigValue)])

    public static func == (lhs: ConfigValue, rhs: ConfigValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.table(a), .table(b)): return a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1)
        default: return false
        }
    }

    /// Structural, as `==` is: equal values (0.0 and -0.0 among them) hash the same.
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .string(let s): hasher.combine(0); hasher.combine(s)
        case .integer(let i): hasher.combine(1); hasher.combine(i)
        case .double(let d): hasher.combine(2); hasher.combine(d)
        case .bool(let b): hasher.combine(3); hasher.combine(b)
        case .array(let a): hasher.combine(4); hasher.combine(a)
        case .table(let members):
            hasher.combine(5)
            hasher.combine(members.count)
            for (key, value) in members {
                hasher.combine(key)
                hasher.combine(value)
            }
        }
    }

    /// A `--set` value: `true`/`false`, a number, a quoted or bare string, or a bracketed list
    /// of those (`[0, 0, 20, 0]`).
    public init(parsing text: Substring) {
        let trimmed = text.trimmingSpaces
        if trimmed == "true" { self = .bool(true); return }
        if trimmed == "false" { self = .bool(false); return }
        if let int = Int(trimmed) { self = .integer(int); return }
        if let double = Double(trimmed), double.isFinite { self = .double(double); return }
        if trimmed.count >= 2, trimmed.first == "\"", trimmed.last == "\"" {
            self = .string(String(trimmed.dropFirst().dropLast()))
            return
        }
        if trimmed.count >= 2, trimmed.first == "[", trimmed.last == "]" {
            let inner = trimmed.dropFirst().dropLast()
            self = .array(inner.isEmpty ? [] : inner.split(separator: ",").map { ConfigValue(parsing: $0) })
            return
        }
        self = .string(String(trimmed))
    }

    /// A short rendering for error messages, on one line: control characters in strings and
    /// keys are escaped as TOML escapes them.
    public var description: String {
        switch self {
        case .string(let s): return "\"" + TOMLKey.escaped(s, escapingQuotes: false) + "\""
        case .integer(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return String(b)
        case .array(let a): return "[" + a.map(\.description).joined(separator: ", ") + "]"
        case .table(let t): return "{" + t.map { "\(TOMLKey.escaped($0.0, escapingQuotes: false)) = \($0.1.description)" }.joined(separator: ", ") + "}"
        }
    }

    public var typeName: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .double: return "a number"
        case .bool: return "a boolean"
        case .array: return "an array"
        case .table: return "a table"
        }
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
