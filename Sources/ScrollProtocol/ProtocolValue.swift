import ScrollModel

/// A JSON value of a request, as the protocol decodes and encodes it: a `configure` setting is
/// passed on as the client wrote it, and the daemon maps it onto its configuration keys and
/// reports type errors with the key, as a config file would. The name clients know for
/// ``SettingValue``, the one value type from a file or the wire to the typed settings.
public typealias ProtocolValue = SettingValue

extension SettingValue: CustomStringConvertible {
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
