/// Why a text is not TOML 1.0, and where.
///
/// `line` and `column` are 1-based; the column counts Unicode scalars from the start of the
/// line (a byte order mark on line 1 is not counted). The message names what is wrong and what
/// was found there, with control characters shown as code points, so it is always one line.
public struct TOMLError: Error, Hashable, Sendable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    public var message: String
    /// The dotted key being read when the error occurred: the key of a key/value pair (with the
    /// table it is in), or the header being read. nil between statements.
    public var key: [String]?
    /// The table the statement is in: the last `[header]` before it (empty: the root table).
    public var table: [String]

    public init(line: Int, column: Int, message: String, key: [String]? = nil, table: [String] = []) {
        self.line = line
        self.column = column
        self.message = message
        self.key = key
        self.table = table
    }

    public var description: String { "line \(line), column \(column): \(message)" }
}
