import ScrollJSON

/// A scanner over one line with the reads the decoders share: objects located field by field,
/// then values read at their ranges with errors that name the key.
///
/// Values are read after a first pass has validated the whole line, so their reads cannot
/// meet a syntax error; should one ever appear it is reported as `bad_request`, never trapped.
/// Each value is scanned a bounded number of times (once per schema level above it), so
/// decoding stays linear in the line.
struct ProtocolReader {
    var scanner: JSONScanner

    init(_ line: UnsafeRawBufferPointer) {
        scanner = JSONScanner(line)
    }

    /// Validates the whole line as one object, recording its fields into `fields` as it goes,
    /// so that a caller still has the fields before a syntax error (the `id`, for the reply).
    mutating func locateLine<Key>(into fields: inout ObjectFields<Key>) throws(ProtocolError) {
        let kind: JSONValueKind
        do throws(JSONError) {
            kind = try scanner.peekValueKind()
            if kind == .object {
                try locate(into: &fields)
            } else {
                // Validated all the same: a syntax error says more than "not an object".
                try scanner.skipValue()
            }
            try scanner.finish()
        } catch {
            throw .syntax(error)
        }
        guard kind == .object else { throw .notAnObject(kind) }
        try fields.checkRepeats()
    }

    private mutating func locate<Key>(into fields: inout ObjectFields<Key>) throws(JSONError) {
        try scanner.beginObject()
        while let key = try scanner.nextKey() {
            let field = scanner.withKeyBytes(key) { Key(bytes: $0) }
            let value = try scanner.skipValue()
            fields.record(field, key: key, value: value)
        }
    }

    /// The fields of the object at `range`, the value of `key`.
    mutating func object<Key>(_: Key.Type, at range: Range<Int>, key: String, expected: String = "an object") throws(ProtocolError) -> ObjectFields<Key> {
        guard kind(at: range) == .object else { throw invalid(key, at: range, expected: expected) }
        var fields = ObjectFields<Key>()
        do throws(JSONError) {
            try locate(into: &fields)
        } catch {
            throw .syntax(error)
        }
        try fields.checkRepeats()
        return fields
    }

    /// The kind of the value at `range`.
    mutating func kind(at range: Range<Int>) -> JSONValueKind? {
        scanner.position = range.lowerBound
        return try? scanner.peekValueKind()
    }

    mutating func isNull(_ range: Range<Int>?) -> Bool {
        guard let range else { return false }
        return kind(at: range) == .null
    }

    /// A key of an object as text.
    func name(of key: JSONKey) -> String {
        scanner.decodeString(key)
    }

    // MARK: Errors

    func invalid(_ key: String, at range: Range<Int>, expected: String, code: ErrorCode = .invalidValue) -> ProtocolError {
        .invalid(key, expected: expected, found: found(range), code: code)
    }

    /// The JSON text of a value for a message, cut after 40 bytes (on a character boundary).
    func found(_ range: Range<Int>, limit: Int = 40) -> String {
        let bytes = scanner.bytes
        let range = range.clamped(to: 0..<bytes.count)
        guard range.count > limit else { return scanner.text(range) }
        var end = range.lowerBound + limit
        while end > range.lowerBound, bytes[end] & 0xC0 == 0x80 { end -= 1 }
        return scanner.text(range.lowerBound..<end) + "…"
    }
}
