/// Why a line is not valid JSON, and where: `column` is the 1-based byte offset in the line of
/// the offending byte, or one past the last byte when the line ended too early.
public struct JSONError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// Something else was found where `expected` (e.g. `"',' or '}'"`) had to be.
        case expected(String)
        /// The line ended where `expected` had to follow: the line is a valid prefix of JSON,
        /// which is what a truncated write leaves behind.
        case unexpectedEnd(expected: String)
        /// A number with a leading zero (`01`), which JSON forbids.
        case leadingZero
        /// A backslash followed by something that is not a JSON escape.
        case invalidEscape
        /// `\u` not followed by four hex digits.
        case invalidUnicodeEscape
        /// A `\u` surrogate without its other half; JSON text must be Unicode.
        case unpairedSurrogate
        /// A raw byte below 0x20 inside a string (it must be escaped).
        case controlCharacter(UInt8)
        /// Bytes that are not well-formed UTF-8.
        case invalidUTF8
        /// Objects and arrays nested deeper than `limit`.
        case tooDeep(limit: Int)
        /// More than whitespace after the top-level value.
        case trailingCharacters
    }

    public var kind: Kind
    public var column: Int

    @inlinable
    public init(_ kind: Kind, column: Int) {
        self.kind = kind
        self.column = column
    }

    /// Whether the text is a valid JSON prefix that merely stops too early.
    public var isUnexpectedEnd: Bool {
        if case .unexpectedEnd = kind { return true }
        return false
    }

    public var description: String {
        switch kind {
        case .expected(let what):
            return "expected \(what) at column \(column)"
        case .unexpectedEnd(let what):
            return "unexpected end of line at column \(column) (expected \(what))"
        case .leadingZero:
            return "number with a leading zero at column \(column)"
        case .invalidEscape:
            return "invalid escape sequence at column \(column)"
        case .invalidUnicodeEscape:
            return "invalid \\u escape (expected four hex digits) at column \(column)"
        case .unpairedSurrogate:
            return "unpaired UTF-16 surrogate in \\u escape at column \(column)"
        case .controlCharacter(let byte):
            let hex = byte < 0x10 ? "0\(String(byte, radix: 16, uppercase: true))" : String(byte, radix: 16, uppercase: true)
            return "unescaped control character 0x\(hex) in string at column \(column)"
        case .invalidUTF8:
            return "invalid UTF-8 at column \(column)"
        case .tooDeep(let limit):
            return "nesting deeper than \(limit) levels at column \(column)"
        case .trailingCharacters:
            return "unexpected characters after the value at column \(column)"
        }
    }
}
