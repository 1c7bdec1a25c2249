/// A setting's value as a configuration file, a `--set` option or a client's request gives it,
/// before it is checked against the key it is assigned to: the value kinds TOML and JSON share,
/// and JSON's `null` (which only a request can carry, and which no key accepts).
///
/// One type from the file or the wire to the typed settings: the configuration reads it, the
/// protocol decodes and encodes it (as `ProtocolValue`), and recordings write it as JSON.
/// Numbers written as integers (no fraction, no exponent) that fit in an `Int` are `integer`,
/// all others `double` — the distinction TOML makes, so `count = 10` is a row count and `count =
/// 10.0` is not. Objects (TOML's tables) keep their members in order, duplicates included.
public enum SettingValue: Sendable {
    /// A string.
    case string(String)
    /// A number written without fraction or exponent that fits in an `Int`.
    case integer(Int)
    /// Any other number.
    case double(Double)
    /// `true` or `false`.
    case bool(Bool)
    /// A list of values.
    case array([SettingValue])
    /// A JSON object or a TOML table: its members in the order they were written.
    case object([(String, SettingValue)])
    /// JSON's `null`, from a request: it takes some settings away (`"parent": null`).
    case null
}

extension SettingValue: Hashable {
    /// Structural: objects are equal member by member, in order.
    public static func == (lhs: SettingValue, rhs: SettingValue) -> Bool {
        switch (lhs, rhs) {
        case let (.string(a), .string(b)): return a == b
        case let (.integer(a), .integer(b)): return a == b
        case let (.double(a), .double(b)): return a == b
        case let (.bool(a), .bool(b)): return a == b
        case let (.array(a), .array(b)): return a == b
        case let (.object(a), .object(b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.null, .null): return true
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
        case .object(let members):
            hasher.combine(5)
            hasher.combine(members.count)
            for (key, value) in members {
                hasher.combine(key)
                hasher.combine(value)
            }
        case .null: hasher.combine(6)
        }
    }
}

extension SettingValue {
    /// The kind of value, for messages ("expected a number, got a string").
    public var typeName: String {
        switch self {
        case .string: return "a string"
        case .integer: return "an integer"
        case .double: return "a number"
        case .bool: return "a boolean"
        case .array: return "an array"
        case .object: return "a table"
        case .null: return "null"
        }
    }
}
