/// The four kinds of string (TOML 1.0, "String").
extension TOMLParser {
    /// `"…"`: escapes, no newline, no control character but tab.
    mutating func parseBasicString() throws(TOMLError) -> String {
        index += 1
        var text: [UInt8] = []
        while true {
            guard let c = peek else { throw error("expected '\"' to end the string, found end of file") }
            switch c {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: text, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &text)
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                throw error("expected '\"' to end the string, found \(found()) (use \"\"\" for a string of several lines)")
            case _ where Self.isControl(c):
                throw error("a string cannot contain \(found()); write it as an escape")
            default:
                text.append(c)
                index += 1
            }
        }
    }

    /// `'…'`: the text as it is, no newline, no control character but tab.
    mutating func parseLiteralString() throws(TOMLError) -> String {
        index += 1
        let start = index
        while true {
            guard let c = peek else { throw error("expected \"'\" to end the string, found end of file") }
            switch c {
            case UInt8(ascii: "'"):
                index += 1
                return String(decoding: bytes[start..<index - 1], as: UTF8.self)
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                throw error("expected \"'\" to end the string, found \(found()) (use ''' for a string of several lines)")
            case _ where Self.isControl(c):
                throw error("a literal string cannot contain \(found())")
            default:
                index += 1
            }
        }
    }

    /// `"""…"""` (escapes) or `'''…'''` (none). A newline right after the opening quotes is
    /// not part of the string; newlines are kept as line feeds; up to two quotes may end the
    /// text right before the closing three.
    mutating func parseMultiLineString(quote: UInt8) throws(TOMLError) -> String {
        let basic = quote == UInt8(ascii: "\"")
        let delimiter = basic ? "\"\"\"" : "'''"
        let startLine = line
        index += 3
        if peek == UInt8(ascii: "\n") || peek == UInt8(ascii: "\r") { try newline() }
        var text: [UInt8] = []
        while true {
            guard let c = peek else {
                throw error("expected \(delimiter) to end the string that starts on line \(startLine), found end of file")
            }
            switch c {
            case quote:
                var run = 0
                while peek(run) == quote { run += 1 }
                if run < 3 {
                    text.append(contentsOf: repeatElement(quote, count: run))
                    index += run
                } else {
                    // `""""` ends with one quote of text, `"""""` with two; a sixth quote
                    // would follow the string, which the caller then refuses.
                    let used = min(run, 5)
                    text.append(contentsOf: repeatElement(quote, count: used - 3))
                    index += used
                    return String(decoding: text, as: UTF8.self)
                }
            case UInt8(ascii: "\\") where basic:
                if try !skipLineEndingBackslash() { try parseEscape(into: &text) }
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                try newline()
                text.append(UInt8(ascii: "\n"))
            case _ where Self.isControl(c):
                throw error("a string cannot contain \(found())\(basic ? "; write it as an escape" : "")")
            default:
                text.append(c)
                index += 1
            }
        }
    }

    /// A backslash followed by blanks up to the end of the line: it and all blanks and newlines
    /// after it are left out. False (nothing consumed) for any other backslash.
    private mutating func skipLineEndingBackslash() throws(TOMLError) -> Bool {
        var offset = 1
        while let c = peek(offset), c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") { offset += 1 }
        guard let end = peek(offset), end == UInt8(ascii: "\n") || end == UInt8(ascii: "\r") else { return false }
        index += offset
        while let c = peek {
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\t"): index += 1
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"): try newline()
            default: return true
            }
        }
        return true
    }

    /// `\b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX`.
    private mutating func parseEscape(into text: inout [UInt8]) throws(TOMLError) {
        let start = index
        index += 1
        guard let c = peek else { throw error("expected an escape after '\\', found end of file") }
        index += 1
        switch c {
        case UInt8(ascii: "b"): text.append(0x08)
        case UInt8(ascii: "t"): text.append(0x09)
        case UInt8(ascii: "n"): text.append(0x0A)
        case UInt8(ascii: "f"): text.append(0x0C)
        case UInt8(ascii: "r"): text.append(0x0D)
        case UInt8(ascii: "\""): text.append(c)
        case UInt8(ascii: "\\"): text.append(c)
        case UInt8(ascii: "u"), UInt8(ascii: "U"):
            let count = c == UInt8(ascii: "u") ? 4 : 8
            var value: UInt32 = 0
            for _ in 0..<count {
                guard let d = peek, let digit = Self.hexValue(d) else {
                    throw error("expected \(count) hexadecimal digits after '\\\(Character(Unicode.Scalar(c)))', found \(found())")
                }
                value = value << 4 | UInt32(digit)
                index += 1
            }
            guard let scalar = Unicode.Scalar(value) else {
                let written = String(decoding: bytes[start..<index], as: UTF8.self)
                throw error("\(written) is not a Unicode scalar value (a surrogate or above 10FFFF)", at: start)
            }
            text.append(contentsOf: String(scalar).utf8)
        default:
            throw error("unknown escape '\\' followed by \(found(at: index - 1)) (TOML 1.0 has \\b \\t \\n \\f \\r \\\" \\\\ \\uXXXX \\UXXXXXXXX)", at: start)
        }
    }

    /// The value of an ASCII hex digit (0-9, a-f, A-F), nil for any other byte.
    static func hexValue(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c &- UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(c &- UInt8(ascii: "a")) &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(c &- UInt8(ascii: "A")) &+ 10
        default: nil
        }
    }
}
