/// Bytes, blanks, newlines, comments and errors.
extension TOMLParser {
    var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    /// Spaces and tabs.
    mutating func skipBlanks() {
        while let c = peek, c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") { index += 1 }
    }

    /// Blanks, newlines and comments, as between the items of an array.
    mutating func skipBlanksNewlinesAndComments() throws(TOMLError) {
        while let c = peek {
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): index += 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): try newline()
            case UInt8(ascii: "#"): try skipComment()
            default: return
            }
        }
    }

    /// A line feed, or a carriage return and a line feed.
    mutating func newline() throws(TOMLError) {
        if peek == UInt8(ascii: "\r") {
            guard peek(1) == UInt8(ascii: "\n") else {
                throw error("a carriage return (U+000D) must be followed by a line feed")
            }
            index += 1
        }
        index += 1
        line += 1
        lineStart = index
    }

    /// From `#` to the end of the line, which is left for the caller. Comments may hold any
    /// character but the control characters other than tab.
    mutating func skipComment() throws(TOMLError) {
        index += 1
        while let c = peek, c != UInt8(ascii: "\n") {
            if c == UInt8(ascii: "\r"), peek(1) == UInt8(ascii: "\n") { return }
            if Self.isControl(c) { throw error("a comment cannot contain \(found())") }
            index += 1
        }
    }

    /// The control characters TOML allows in no string and no comment: all but tab.
    static func isControl(_ c: UInt8) -> Bool {
        (c < 0x20 && c != UInt8(ascii: "\t")) || c == 0x7F
    }

    static func isDigit(_ c: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
    }

    // MARK: Errors

    /// The 1-based column of byte `offset` on the current line, in Unicode scalars.
    func column(of offset: Int) -> Int {
        1 + bytes[lineStart..<min(offset, bytes.count)].count { $0 & 0xC0 != 0x80 }
    }

    func error(_ message: String, at offset: Int? = nil) -> TOMLError {
        TOMLError(line: line, column: column(of: offset ?? index), message: message, key: context, table: currentPath)
    }

    func error(_ message: String, at place: Place) -> TOMLError {
        TOMLError(line: place.line, column: place.column, message: message, key: context, table: currentPath)
    }

    /// What is at `offset` (default: the current byte), for messages: `'x'`, a code point for
    /// control and blank characters, "end of line" or "end of file".
    func found(at offset: Int? = nil) -> String {
        let offset = offset ?? index
        guard offset < bytes.count else { return "end of file" }
        if bytes[offset] == UInt8(ascii: "\n") || (bytes[offset] == UInt8(ascii: "\r") && offset + 1 < bytes.count && bytes[offset + 1] == UInt8(ascii: "\n")) {
            return "end of line"
        }
        var iterator = bytes[offset...].makeIterator()
        var decoder = UTF8()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator) else { return "an invalid byte" }
        if TOMLKey.needsEscape(scalar) || scalar.properties.isWhitespace || scalar.properties.generalCategory == .format {
            return "U+" + TOMLKey.hex(scalar.value, width: 4)
        }
        return "'\(scalar)'"
    }
}
