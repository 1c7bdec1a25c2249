import ScrollJSON
import ScrollModel

/// Typed reads of located values. `expected` describes what the key accepts, and is the message
/// for every kind of mistake in it (wrong type or out of range).
extension ProtocolReader {
    mutating func string(at range: Range<Int>, key: String, expected: String = "a string", code: ErrorCode = .invalidValue) throws(ProtocolError) -> String {
        guard kind(at: range) == .string else { throw invalid(key, at: range, expected: expected, code: code) }
        return try readString()
    }

    /// Any finite number (what the daemon sends: a reply is read as it is).
    mutating func number(at range: Range<Int>, key: String, expected: String = "a finite number") throws(ProtocolError) -> Double {
        guard let number = try jsonNumber(at: range), number.double.isFinite else {
            throw invalid(key, at: range, expected: expected)
        }
        return number.double
    }

    /// Any JSON number, one too large for a double read as infinite: for a caller that refuses
    /// what is out of its own range with that range.
    mutating func unboundedNumber(at range: Range<Int>, key: String) throws(ProtocolError) -> Double {
        guard let number = try jsonNumber(at: range) else { throw invalid(key, at: range, expected: "a number") }
        return number.double
    }

    /// A number a request gives: within ``Limits/magnitude``, whatever the key means.
    mutating func quantity(at range: Range<Int>, key: String) throws(ProtocolError) -> Double {
        try number(at: range, key: key, in: -Limits.magnitude...Limits.magnitude)
    }

    /// A number within `bounds`, the key's own (`Limits`).
    mutating func number(at range: Range<Int>, key: String, in bounds: ClosedRange<Double>, expected: String? = nil) throws(ProtocolError) -> Double {
        let expected = expected ?? "a number between \(Limits.format(bounds.lowerBound)) and \(Limits.format(bounds.upperBound))"
        let value = try number(at: range, key: key, expected: expected)
        guard bounds.contains(value) else { throw invalid(key, at: range, expected: expected) }
        return value
    }

    mutating func int(at range: Range<Int>, key: String, expected: String = "an integer") throws(ProtocolError) -> Int {
        guard let number = try jsonNumber(at: range), let integer = number.integer, let int = Int(exactly: integer) else {
            throw invalid(key, at: range, expected: expected)
        }
        return int
    }

    mutating func bool(at range: Range<Int>, key: String) throws(ProtocolError) -> Bool {
        guard kind(at: range) == .bool else { throw invalid(key, at: range, expected: "true or false") }
        return try readBool()
    }

    mutating func strings(at range: Range<Int>, key: String) throws(ProtocolError) -> [String] {
        let expected = "an array of strings"
        guard kind(at: range) == .array else { throw invalid(key, at: range, expected: expected) }
        var strings: [String] = []
        try beginArray()
        while try nextElement() {
            guard try peekKind() == .string else { throw invalid(key, at: range, expected: expected) }
            strings.append(try readString())
        }
        return strings
    }

    /// An optional value's range: absent and `null` are both nil.
    mutating func present(_ range: Range<Int>?) -> Range<Int>? {
        guard let range, kind(at: range) != .null else { return nil }
        return range
    }

    private mutating func jsonNumber(at range: Range<Int>) throws(ProtocolError) -> JSONNumber? {
        guard kind(at: range) == .number else { return nil }
        return try readNumber()
    }

    // MARK: Any value

    /// The value at `range` as a `ProtocolValue`. Nesting is bounded by the scanner's depth
    /// limit, which bounds this recursion as well.
    mutating func value(at range: Range<Int>, key: String) throws(ProtocolError) -> ProtocolValue {
        scanner.position = range.lowerBound
        return try nextValue(key: key)
    }

    private mutating func nextValue(key: String) throws(ProtocolError) -> ProtocolValue {
        switch try peekKind() {
        case .object:
            var members: [(String, ProtocolValue)] = []
            // By their bytes: keys that only look alike (Unicode spellings) are different keys.
            var seen = Set<[UInt8]>()
            try beginObject()
            while let member = try nextKey() {
                let memberName = name(of: member)
                if !seen.insert(Array(memberName.utf8)).inserted {
                    throw ProtocolError(.badRequest, "key \(ProtocolError.quoted(memberName)) given twice in \(ProtocolError.quoted(key)); give each key once")
                }
                members.append((memberName, try nextValue(key: key)))
            }
            return .object(members)
        case .array:
            var items: [ProtocolValue] = []
            try beginArray()
            while try nextElement() {
                items.append(try nextValue(key: key))
            }
            return .array(items)
        case .string:
            return .string(try readString())
        case .number:
            let number = try readNumber()
            if isIntegerShaped(number.range), let integer = number.integer, let int = Int(exactly: integer) {
                return .integer(int)
            }
            guard number.double.isFinite else {
                throw invalid(key, at: number.range, expected: "numbers within the range of a double")
            }
            return .double(number.double)
        case .bool:
            return .bool(try readBool())
        case .null:
            try readNull()
            return .null
        }
    }

    private func isIntegerShaped(_ range: Range<Int>) -> Bool {
        !scanner.bytes[range].contains { $0 == UInt8(ascii: ".") || $0 | 0x20 == UInt8(ascii: "e") }
    }
}
