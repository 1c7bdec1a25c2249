import ScrollModel

/// Decodes request lines (docs/design.md §7) for the daemon.
///
/// Safe on any bytes: the line is validated by `JSONScanner` (linear time, bounded nesting)
/// before any value is interpreted, and every problem is a `ProtocolError` whose message names
/// the offending key. The `id` is recovered whenever its value was read before the problem —
/// even when the line breaks after it — so that the error reply can echo it.
///
/// Precedence of errors: invalid JSON or not an object (`bad_request`), then a missing or
/// non-string `op` (`bad_request`), an unknown op (`unknown_op`), then the op's keys in the
/// order of its arguments: missing ones are `bad_request`, wrong types, out-of-range values
/// and (for `configure`) unknown keys are `invalid_value`. Other ops ignore keys they do not
/// use, so that newer clients keep working.
public enum RequestDecoder {
    public static func decode(_ line: UnsafeRawBufferPointer) throws(ProtocolError) -> Request {
        var reader = ProtocolReader(line)
        var fields = ObjectFields<RequestKey>()
        do {
            try reader.locateLine(into: &fields)
        } catch {
            // `fields` holds whatever the first pass located before it stopped.
            var error = error
            error.id = fields[.id].flatMap { range in try? Self.id(at: range, in: reader, line: line) }
            throw error
        }
        let id = try Self.id(at: fields[.id], in: reader, line: line)
        do {
            var request = RequestReader(reader: reader, fields: fields)
            return Request(id: id, operation: try request.operation())
        } catch {
            var error = error
            error.id = id
            throw error
        }
    }

    /// The id as sent, echoed in the reply. A number in it beyond a double's range would make
    /// the reply carry one that no strict reader accepts: such an id is refused, and not echoed.
    private static func id(at range: Range<Int>?, in reader: ProtocolReader, line: UnsafeRawBufferPointer) throws(ProtocolError) -> RequestID? {
        guard let range else { return nil }
        // Only an exponent or a run of over 300 digits can leave a double's range: the usual
        // id (a small integer, a short string) is echoed without being read again.
        let mayOverflow = range.count > 300 || line[range].contains { $0 | 0x20 == UInt8(ascii: "e") }
        guard mayOverflow else { return RequestID(validated: line, range: range) }
        var copy = reader
        do throws(ProtocolError) {
            _ = try copy.value(at: range, key: "id")
        } catch where error.code == .invalidValue {
            // The one value error an id can hold: a number beyond a double's range.
            throw ProtocolError(.badRequest, "\"id\" holds a number beyond the range of a double; an id is echoed as sent, so its numbers must be finite")
        }
        return RequestID(validated: line, range: range)
    }

    public static func decode(_ line: [UInt8]) throws(ProtocolError) -> Request {
        try withBytes(of: line) { raw throws(ProtocolError) in try decode(raw) }
    }

    public static func decode(_ line: String) throws(ProtocolError) -> Request {
        try withBytes(of: line) { raw throws(ProtocolError) in try decode(raw) }
    }
}
