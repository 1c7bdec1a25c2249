import ScrollJSON

extension ProtocolValue {
    /// Parses one whole JSON value (a recorded request's member, say), with the limits and
    /// errors the request decoder has: a `bad_request` for invalid JSON, never a trap.
    public init(parsing bytes: [UInt8]) throws(ProtocolError) {
        self = try bytes.withUnsafeBytes { raw in
            Result { () throws(ProtocolError) in
                var reader = ProtocolReader(raw)
                let range: Range<Int>
                do throws(JSONError) {
                    range = try reader.scanner.skipValue()
                    try reader.scanner.finish()
                } catch {
                    throw .syntax(error)
                }
                return try reader.value(at: range, key: "value")
            }
        }.get()
    }

    /// The member `name` of an object value; nil for anything else or a missing member.
    public subscript(member name: String) -> ProtocolValue? {
        guard case .object(let members) = self else { return nil }
        return members.last { $0.0 == name }?.1
    }
}
