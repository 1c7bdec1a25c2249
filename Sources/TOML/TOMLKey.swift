/// Writing keys and strings back as TOML, for messages: whatever a file holds, the result is
/// one line of printable text.
public enum TOMLKey {
    /// A dotted key as TOML writes it: bare parts as they are, any other part quoted
    /// (`containers."a b".axes`, `"a\u0007b"`).
    public static func written(_ parts: [String]) -> String {
        parts.map { part in
            !part.isEmpty && part.utf8.allSatisfy(isBareKeyByte) ? part : quoted(part)
        }.joined(separator: ".")
    }

    /// `text` as a TOML basic string: quotes and backslashes escaped, and so is every control
    /// character (C0, DEL, C1) and line or paragraph separator, which TOML's escapes or `\uXXXX`
    /// spell out.
    public static func quoted(_ text: String) -> String {
        "\"" + escaped(text, escapingQuotes: true) + "\""
    }

    /// `text` with its control characters escaped as in a TOML basic string (`\n`, `\u0007`),
    /// and with quotes and backslashes escaped too when `escapingQuotes`.
    public static func escaped(_ text: String, escapingQuotes: Bool) -> String {
        guard text.unicodeScalars.contains(where: { needsEscape($0) || (escapingQuotes && ($0 == "\"" || $0 == "\\")) }) else {
            return text
        }
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where escapingQuotes: result += "\\\""
            case "\\" where escapingQuotes: result += "\\\\"
            case "\u{8}": result += "\\b"
            case "\t": result += "\\t"
            case "\n": result += "\\n"
            case "\u{C}": result += "\\f"
            case "\r": result += "\\r"
            case _ where needsEscape(scalar): result += "\\u" + hex(scalar.value, width: 4)
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// Whether a message must not show `scalar` as it is.
    public static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || scalar == "\u{2028}" || scalar == "\u{2029}"
    }

    static func isBareKeyByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    static func hex(_ value: UInt32, width: Int) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
