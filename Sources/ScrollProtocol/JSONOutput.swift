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

    /// `,"id":<id>` when there is one: every reply puts it right after its `type`.
    static func id(_ id: RequestID?, _ buffer: inout [UInt8]) {
        guard let id else { return }
        raw(",\"id\":", &buffer)
        buffer.append(contentsOf: id.json.utf8)
    }
}
