/// A TOML 1.0 value.
///
/// Arrays may mix kinds (TOML 1.0). Tables keep their keys in source order, each with the line
/// and column it was written on (see `TOMLTable`). An array of tables (`[[name]]`) is an
/// `.array` of `.table`s.
public enum TOMLValue: Hashable, Sendable {
    case string(String)
    case integer(Int64)
    case float(Double)
    case boolean(Bool)
    // Dates and times are boxed: inline, the largest (eight integers) would make every value
    // 72 bytes, and a configuration's list of ten million numbers ten times its size in memory.
    indirect case offsetDateTime(TOMLOffsetDateTime)
    indirect case localDateTime(TOMLLocalDateTime)
    indirect case localDate(TOMLDate)
    indirect case localTime(TOMLTime)
    case array([TOMLValue])
    case table(TOMLTable)

    /// The kind as TOML names it, for messages: "string", "integer", "float", "boolean",
    /// "offset date-time", "local date-time", "local date", "local time", "array", "table".
    public var kindName: String {
        switch self {
        case .string: return "string"
        case .integer: return "integer"
        case .float: return "float"
        case .boolean: return "boolean"
        case .offsetDateTime: return "offset date-time"
        case .localDateTime: return "local date-time"
        case .localDate: return "local date"
        case .localTime: return "local time"
        case .array: return "array"
        case .table: return "table"
        }
    }

    /// `kindName` after "a" or "an".
    public var kindWithArticle: String {
        ("aeiou".contains(kindName.first!) ? "an " : "a ") + kindName
    }

    public var string: String? { if case .string(let v) = self { v } else { nil } }
    public var integer: Int64? { if case .integer(let v) = self { v } else { nil } }
    public var float: Double? { if case .float(let v) = self { v } else { nil } }
    public var boolean: Bool? { if case .boolean(let v) = self { v } else { nil } }
    public var array: [TOMLValue]? { if case .array(let v) = self { v } else { nil } }
    public var table: TOMLTable? { if case .table(let v) = self { v } else { nil } }
}

extension TOMLValue: CustomStringConvertible {
    /// The value written as TOML for a message (an inline table for a table), on one line:
    /// strings are quoted with their control characters escaped, and cut past 100 characters.
    public var description: String { written(whole: false) }

    /// The value written as TOML to be read back: every string and key whole.
    public var writtenWhole: String { written(whole: true) }

    private func written(whole: Bool) -> String {
        switch self {
        case .string(let s): return whole ? TOMLKey.quotedWhole(s) : TOMLKey.quoted(s)
        case .integer(let i): return String(i)
        case .float(let d):
            if d.isNaN { return "nan" }
            if d.isInfinite { return d < 0 ? "-inf" : "inf" }
            return String(d)
        case .boolean(let b): return String(b)
        case .offsetDateTime(let v): return v.description
        case .localDateTime(let v): return v.description
        case .localDate(let v): return v.description
        case .localTime(let v): return v.description
        case .array(let items): return "[" + items.map { $0.written(whole: whole) }.joined(separator: ", ") + "]"
        case .table(let table):
            guard !table.isEmpty else { return "{}" }
            let key = { (k: String) in whole ? TOMLKey.writtenWhole([k]) : TOMLKey.written([k]) }
            return "{ " + table.entries.map { key($0.key) + " = " + $0.value.written(whole: whole) }.joined(separator: ", ") + " }"
        }
    }
}
