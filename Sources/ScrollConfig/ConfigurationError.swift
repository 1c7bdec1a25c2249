import TOML

/// A configuration problem, naming the key (and, from a file, the line) it is about.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var key: String
    public var message: String
    /// 1-based line in the file the value came from, when known.
    public var line: Int?
    public var file: String?

    public init(key: String, message: String, line: Int? = nil, file: String? = nil) {
        self.key = key
        // Each quote in a message is cut already; this bounds whatever a message puts together.
        let (head, isCut) = TOMLKey.cut(message, limit: Self.messageCharacters)
        self.message = isCut ? head + "… (\(message.utf8.count) bytes)" : message
        self.line = line
        self.file = file
    }

    /// The most of a message that is kept: room for several cut quotes and a list of keys.
    static let messageCharacters = 2000

    public var description: String {
        var location = ""
        if let file { location += file + ":" }
        if let line { location += "\(line): " } else if !location.isEmpty { location += " " }
        return "\(location)\(displayKey): \(message)"
    }

    /// The key as messages show it: a part that is empty (`"" = 1` is a key too) or holds a
    /// control character or line separator is quoted with TOML's escapes (`daemon."a\u0007b"`),
    /// so that whatever a file holds, the message stays one line of printable text.
    /// A part (or a whole key) longer than ``TOMLKey/shownCharacters`` is cut, saying how long
    /// it is.
    public var displayKey: String {
        TOMLKey.shown(key.split(separator: ".", omittingEmptySubsequences: false).map { part in
            part.isEmpty || part.utf8.count > TOMLKey.shownCharacters || part.unicodeScalars.contains(where: TOMLKey.needsEscape)
                ? TOMLKey.quoted(String(part)) : String(part)
        }.joined(separator: "."), limit: TOMLKey.shownKeyCharacters)
    }
}
