/// A JSON value of a `configure` setting, passed on as the client wrote it: the daemon maps it
/// onto its configuration keys and reports type errors with the key, as a config file would.
///
/// Numbers written as integers (no fraction, no exponent) that fit in an `Int` are `integer`,
/// all others `double` — the distinction TOML makes, so `count: 10` is a row count and
/// `count: 10.0` is not. Objects keep their members in order, duplicates included.
public enum ProtocolValue: Sendable {
    case string(String)
    case integer(Int)
    case double(Double)
    case bool(Bool)
    case array([ProtocolValue])
    case object([(String, ProtocolValue)])
    case null
}

extension ProtocolValue: Hashable {
    public static func == (lhs: ProtocolValue, rhs: ProtocolValue) -> Bool {
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

extension ProtocolValue: CustomStringConvertible {
    /// The value as compact JSON.
    public var description: String {
        var bytes: [UInt8] = []
        encode(into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the value as compact JSON. Integral doubles keep a ".0" so that they read back
    /// as doubles, not integers.
    public func encode(into buffer: inout [UInt8]) {
        switch self {
        case .string(let s): JSONOutput.string(s, &buffer)
        case .integer(let i): JSONOutput.int(i, &buffer)
        case .double(let d):
            let start = buffer.count
            JSONOutput.double(d, &buffer)
            let isIntegerShaped = !buffer[start...].contains {
                $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "e") || $0 == UInt8(ascii: "E")
            }
            if isIntegerShaped { JSONOutput.raw(".0", &buffer) }
        case .bool(let b): JSONOutput.raw(b ? "true" : "false", &buffer)
        case .array(let items):
            buffer.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                item.encode(into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            buffer.append(UInt8(ascii: "{"))
            for (i, (key, value)) in members.enumerated() {
                if i > 0 { buffer.append(UInt8(ascii: ",")) }
                JSONOutput.string(key, &buffer)
                buffer.append(UInt8(ascii: ":"))
                value.encode(into: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        case .null: JSONOutput.raw("null", &buffer)
        }
    }
}
