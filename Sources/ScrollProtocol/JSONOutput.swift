import ScrollJSON

/// The few JSON writes the encoders share, over `ScrollLog`'s formatters.
enum JSONOutput {
    @inline(__always)
    static func raw(_ text: StaticString, _ buffer: inout [UInt8]) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    @inline(__always)
    static func string(_ string: String, _ buffer: inout [UInt8]) {
        JSONStringFormatter.append(string, to: &buffer)
    }

    @inline(__always)
    static func int(_ value: Int, _ buffer: inout [UInt8]) {
        JSONNumberFormatter.append(value, to: &buffer)
    }

    @inline(__always)
    static func double(_ value: Double, _ buffer: inout [UInt8]) {
        JSONNumberFormatter.append(value, to: &buffer)
    }

    static func strings(_ strings: [String], _ buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "["))
        for (i, string) in strings.enumerated() {
            if i > 0 { buffer.append(UInt8(ascii: ",")) }
            JSONStringFormatter.append(string, to: &buffer)
        }
        buffer.append(UInt8(ascii: "]"))
    }

    /// `,"key":` — the start of a member after the first (every line opens with its `type` or
    /// `op`, so every other member follows a comma).
    @inline(__always)
    static func key(_ key: StaticString, _ buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: ","))
        buffer.append(UInt8(ascii: "\""))
        raw(key, &buffer)
        buffer.append(UInt8(ascii: "\""))
        buffer.append(UInt8(ascii: ":"))
    }

    /// `,"key":value`: a string, a number, a flag, a list of strings, or `null` for a nil.
    static func member(_ name: StaticString, _ value: some JSONOutputValue, _ buffer: inout [UInt8]) {
        key(name, &buffer)
        value.writeJSON(into: &buffer)
    }

    /// `,"id":<id>` when there is one: every reply puts it right after its `type`.
    static func id(_ id: RequestID?, _ buffer: inout [UInt8]) {
        guard let id else { return }
        raw(",\"id\":", &buffer)
        buffer.append(contentsOf: id.json.utf8)
    }
}

/// A value `JSONOutput.member` writes: the kinds of value the protocol's lines carry.
protocol JSONOutputValue {
    func writeJSON(into buffer: inout [UInt8])
}

extension String: JSONOutputValue {
    func writeJSON(into buffer: inout [UInt8]) { JSONOutput.string(self, &buffer) }
}

extension Int: JSONOutputValue {
    func writeJSON(into buffer: inout [UInt8]) { JSONOutput.int(self, &buffer) }
}

extension Double: JSONOutputValue {
    func writeJSON(into buffer: inout [UInt8]) { JSONOutput.double(self, &buffer) }
}

extension Bool: JSONOutputValue {
    func writeJSON(into buffer: inout [UInt8]) { JSONOutput.raw(self ? "true" : "false", &buffer) }
}

extension Array: JSONOutputValue where Element == String {
    func writeJSON(into buffer: inout [UInt8]) { JSONOutput.strings(self, &buffer) }
}

extension Optional: JSONOutputValue where Wrapped: JSONOutputValue {
    /// `null` for nil.
    func writeJSON(into buffer: inout [UInt8]) {
        if let self { self.writeJSON(into: &buffer) } else { JSONOutput.raw("null", &buffer) }
    }
}
