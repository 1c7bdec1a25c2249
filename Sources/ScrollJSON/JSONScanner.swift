/// A pull scanner over one JSON text in memory (one line of a JSON Lines file).
///
/// The caller walks the structure it expects (`beginObject`, `nextKey`, `readNumber`, …) and
/// `skipValue`s the rest, so nothing is built that is not used: no dictionary, no boxed values.
/// Every byte is validated, including the values that are skipped, so a line is either valid
/// JSON or rejected with the 1-based byte column of the first problem.
///
/// Made for hostile input: each byte is examined a bounded number of times (linear time), reads
/// past the end are impossible (every access is range-checked), and nesting is limited to
/// `maximumDepth`, which also bounds the recursion of `skipValue`.
public struct JSONScanner {
    /// Deep enough for any real document, shallow enough that recursion is harmless, and
    /// exactly the width of the bit stack below.
    public static let maximumDepth = 64

    public let bytes: UnsafeRawBufferPointer
    /// The offset of the next byte to read; always within `0...bytes.count`.
    package var cursor: Int
    /// How many objects and arrays are open.
    public private(set) var depth = 0
    /// Bit `d` is set while the container at depth `d + 1` has not produced its first member,
    /// which decides whether a ',' must come first. One word suffices: depth ≤ 64.
    private var expectingFirst: UInt64 = 0

    public init(_ bytes: UnsafeRawBufferPointer, position: Int = 0) {
        self.bytes = bytes
        cursor = min(max(position, 0), bytes.count)
    }

    /// The offset of the next byte to read. Setting it lets a caller come back to a value it
    /// skipped earlier (after it learned what it means) without scanning the line again; it is
    /// clamped to the input, so no setting can make the scanner read outside it.
    public var position: Int {
        get { cursor }
        set { cursor = min(max(newValue, 0), bytes.count) }
    }

    /// The byte at `offset`, or 0 outside the input. A 0 byte is never valid where a caller looks
    /// for structure, so it doubles as the end marker without a separate bounds branch.
    @inline(__always)
    func byte(at offset: Int) -> UInt8 {
        UInt(bitPattern: offset) < UInt(bytes.count) ? bytes[offset] : 0
    }

    @inline(__always)
    mutating func skipWhitespace() {
        while cursor < bytes.count {
            switch bytes[cursor] {
            case 0x20, 0x09, 0x0A, 0x0D: cursor += 1
            default: return
            }
        }
    }

    /// The error for a missing `expected` at the current position: "unexpected end" when the
    /// line ran out, so that a truncated line can be told from a malformed one.
    func failure(expected: String) -> JSONError {
        failure(expected: expected, at: cursor)
    }

    func failure(expected: String, at offset: Int) -> JSONError {
        if offset >= bytes.count {
            return JSONError(.unexpectedEnd(expected: expected), column: bytes.count + 1)
        }
        return JSONError(.expected(expected), column: offset + 1)
    }

    /// Whether only whitespace is left.
    public mutating func isAtEnd() -> Bool {
        skipWhitespace()
        return cursor >= bytes.count
    }

    /// What the next value is, judged by its first byte (after whitespace).
    public mutating func peekValueKind() throws(JSONError) -> JSONValueKind {
        skipWhitespace()
        switch byte(at: cursor) {
        case UInt8(ascii: "{"): return .object
        case UInt8(ascii: "["): return .array
        case UInt8(ascii: "\""): return .string
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return .bool
        case UInt8(ascii: "n"): return .null
        default: throw failure(expected: "a value")
        }
    }

    // MARK: Objects and arrays

    private mutating func open() throws(JSONError) {
        guard depth < Self.maximumDepth else {
            throw JSONError(.tooDeep(limit: Self.maximumDepth), column: cursor + 1)
        }
        expectingFirst |= 1 << UInt64(depth)
        depth += 1
        cursor += 1
    }

    /// Whether the innermost container is still before its first member (and clears that).
    private mutating func takeFirst() -> Bool {
        precondition(depth > 0, "JSONScanner: no open object or array")
        let bit: UInt64 = 1 << UInt64(depth - 1)
        defer { expectingFirst &= ~bit }
        return expectingFirst & bit != 0
    }

    private mutating func close() {
        cursor += 1
        depth -= 1
    }

    /// Consumes the '{' that starts an object.
    public mutating func beginObject() throws(JSONError) {
        skipWhitespace()
        guard byte(at: cursor) == UInt8(ascii: "{") else { throw failure(expected: "'{'") }
        try open()
    }

    /// The next key of the innermost object, with its ':' consumed so that the caller reads
    /// (or skips) exactly one value next; nil once the object's '}' has been consumed.
    public mutating func nextKey() throws(JSONError) -> JSONKey? {
        skipWhitespace()
        let first = takeFirst()
        guard try nextMember(first: first, closer: UInt8(ascii: "}"), expected: "',' or '}'") else { return nil }
        if !first { skipWhitespace() }
        guard byte(at: cursor) == UInt8(ascii: "\"") else { throw failure(expected: first ? "a key or '}'" : "a key") }
        let key = try scanString()
        skipWhitespace()
        guard byte(at: cursor) == UInt8(ascii: ":") else { throw failure(expected: "':'") }
        cursor += 1
        return key
    }

    /// Consumes the '[' that starts an array.
    public mutating func beginArray() throws(JSONError) {
        skipWhitespace()
        guard byte(at: cursor) == UInt8(ascii: "[") else { throw failure(expected: "'['") }
        try open()
    }

    /// Whether the innermost array has another element (the caller reads or skips it next);
    /// false once the array's ']' has been consumed.
    public mutating func nextElement() throws(JSONError) -> Bool {
        skipWhitespace()
        return try nextMember(first: takeFirst(), closer: UInt8(ascii: "]"), expected: "',' or ']'")
    }

    /// What an object's key and an array's element are preceded by: false once the innermost
    /// container's `closer` has been consumed; true when a member follows, its ',' consumed
    /// (the `first` member has none). `expected` names the separators in the error.
    @inline(__always)
    private mutating func nextMember(first: Bool, closer: UInt8, expected: String) throws(JSONError) -> Bool {
        if byte(at: cursor) == closer {
            close()
            return false
        }
        if first { return true }
        guard byte(at: cursor) == UInt8(ascii: ",") else { throw failure(expected: expected) }
        cursor += 1
        return true
    }

    // MARK: Literals

    public mutating func readBool() throws(JSONError) -> Bool {
        skipWhitespace()
        switch byte(at: cursor) {
        case UInt8(ascii: "t"):
            try literal("true")
            return true
        case UInt8(ascii: "f"):
            try literal("false")
            return false
        default:
            throw failure(expected: "true or false")
        }
    }

    public mutating func readNull() throws(JSONError) {
        skipWhitespace()
        try literal("null")
    }

    /// Consumes `null` if it comes next: optional fields treat it as absent.
    public mutating func skipNull() throws(JSONError) -> Bool {
        guard try peekValueKind() == .null else { return false }
        try literal("null")
        return true
    }

    private mutating func literal(_ text: StaticString) throws(JSONError) {
        let start = cursor
        let mismatch = text.withUTF8Buffer { expected in
            expected.indices.first { byte(at: start + $0) != expected[$0] }
        }
        if let mismatch {
            if start + mismatch >= bytes.count {
                throw JSONError(.unexpectedEnd(expected: "'\(text)'"), column: bytes.count + 1)
            }
            throw JSONError(.expected("'\(text)'"), column: start + 1)
        }
        cursor = start + text.utf8CodeUnitCount
    }

    // MARK: Any value

    /// Validates and steps over the next value of any kind; returns its byte range.
    @discardableResult
    public mutating func skipValue() throws(JSONError) -> Range<Int> {
        let kind = try peekValueKind()
        let start = cursor
        switch kind {
        case .object:
            try beginObject()
            while try nextKey() != nil { try skipValue() }
        case .array:
            try beginArray()
            while try nextElement() { try skipValue() }
        case .string:
            _ = try scanString()
        case .number:
            _ = try scanNumber()
        case .bool:
            _ = try readBool()
        case .null:
            try readNull()
        }
        return start..<cursor
    }

    /// Checks that nothing but whitespace follows the top-level value.
    public mutating func finish() throws(JSONError) {
        skipWhitespace()
        if cursor < bytes.count { throw JSONError(.trailingCharacters, column: cursor + 1) }
    }

    /// The raw text of a range of the input, e.g. a skipped value for an error message.
    public func text(_ range: Range<Int>) -> String {
        let clamped = range.clamped(to: 0..<bytes.count)
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[clamped]), as: UTF8.self)
    }
}

/// The kind of a JSON value, from its first byte.
public enum JSONValueKind: Hashable, Sendable {
    case object, array, string, number, bool, null
}
