/// A configuration problem, naming the key (and, from a file, the line) it is about.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    public var key: String
    public var message: String
    /// 1-based line in the file the value came from, when known.
    public var line: Int?
    public var file: String?

    public init(key: String, message: String, line: Int? = nil, file: String? = nil) {
        self.key = key
        self.message = message
        self.line = line
        self.file = file
    }

    public var description: String {
        var location = ""
        if let file { location += file + ":" }
        if let line { location += "\(line): " } else if !location.isEmpty { location += " " }
        // `"" = 1` is a key too; quoted, it keeps the message's shape.
        return "\(location)\(key.isEmpty ? "\"\"" : key): \(message)"
    }
}
