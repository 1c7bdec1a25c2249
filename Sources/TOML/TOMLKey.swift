/// Writing keys and strings back as TOML, for messages: whatever a file holds, the result is
/// one line of printable text.
public enum TOMLKey {
    /// A dotted key as TOML writes it: bare parts as they are, any other part quoted
    /// (`containers."a b".axes`, `"a\u0007b"`).
    /// A part longer than ``shownCharacters`` is quoted, and cut as ``quoted(_:escapingQuotes:)``
    /// cuts it; so is the whole key when it has many parts.
    public static func written(_ parts: [String]) -> String {
        let key = parts.map { part in
            !part.isEmpty && part.utf8.allSatisfy(isBareKeyByte) && part.utf8.count <= shownCharacters ? part : quoted(part)
        }.joined(separator: ".")
        return shown(key, limit: shownKeyCharacters)
    }

    /// A dotted key written to be read back: every part whole, however long (``written(_:)``
    /// writes keys for messages, and cuts them).
    public static func writtenWhole(_ parts: [String]) -> String {
        parts.map { part in
            !part.isEmpty && part.utf8.allSatisfy(isBareKeyByte) ? part : quotedWhole(part)
        }.joined(separator: ".")
    }

    /// `text` as a TOML basic string, whole, to be read back.
    public static func quotedWhole(_ text: String) -> String {
        "\"" + escaped(text, escapingQuotes: true) + "\""
    }

    /// How many characters of a key, value or name a message quotes: a message stays short
    /// (one log line, one reply) whatever a file or a client holds.
    public static let shownCharacters = 100
    /// How many characters of a whole dotted key: room for a few parts of the most each shows.
    public static let shownKeyCharacters = 400

    /// `text` as a TOML basic string: quotes and backslashes escaped, and so is every control
    /// character (C0, DEL, C1) and line or paragraph separator, which TOML's escapes or `\uXXXX`
    /// spell out. Text longer than ``shownCharacters`` is cut at a character's end, and the
    /// quote says so and how long the whole is: `"xxxx…" (62914560 bytes)`.
    public static func quoted(_ text: String, escapingQuotes: Bool = true) -> String {
        let (head, isCut) = cut(text)
        let quoted = "\"" + escaped(head, escapingQuotes: escapingQuotes)
        return isCut ? quoted + "…\" (\(text.utf8.count) bytes)" : quoted + "\""
    }

    /// `text` as a listing shows a name (`scrolld devices`, `scrollctl devices`): as it is when
    /// it is printable and at most ``shownCharacters`` characters long, else ``quoted(_:escapingQuotes:)``.
    public static func listed(_ text: String) -> String {
        text.unicodeScalars.contains(where: needsEscape) || cut(text).isCut ? quoted(text) : text
    }

    /// `text` as a message shows it: as it is, or its first ``shownCharacters`` characters,
    /// "…" and how long the whole is (`xxxx… (62914560 bytes)`).
    public static func shown(_ text: String, limit: Int = shownCharacters) -> String {
        let (head, isCut) = cut(text, limit: limit)
        return isCut ? head + "… (\(text.utf8.count) bytes)" : text
    }

    /// The first `limit` characters of `text`, and whether that is not all of it. Characters
    /// are counted as Unicode scalars: a Swift `Character` may hold any number of combining
    /// marks (one `a` and 60 MiB of U+0301 is one), so counting those would cut nothing.
    /// Counting stops at the limit, so a long text costs no more than a short one.
    public static func cut(_ text: String, limit: Int = shownCharacters) -> (head: String, isCut: Bool) {
        guard text.utf8.count > limit else { return (text, false) }
        let scalars = text.unicodeScalars
        guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
              end < scalars.endIndex else { return (text, false) }
        return (String(scalars[..<end]), true)
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
