/// A reader of TOML 1.0.0 (https://toml.io/en/v1.0.0), in Swift alone.
///
/// One pass over the UTF-8 bytes, keeping line and column for errors and for every key (see
/// `TOMLTable.Entry`). The first mistake stops the parse with a `TOMLError` naming it.
///
/// Beyond the specification: arrays and inline tables may nest at most `maximumNesting` deep,
/// and a key path (header and dotted keys together) may have at most `maximumNesting` parts,
/// so that no text can exhaust the stack of whoever walks the result.
public struct TOMLParser {
    public static let maximumNesting = 128

    /// Parses `text`. A leading byte order mark is skipped.
    public static func parse(_ text: String) throws(TOMLError) -> TOMLTable {
        var parser = TOMLParser(bytes: Array(text.utf8))
        return try parser.parseDocument()
    }

    /// Parses UTF-8 bytes, which must be valid UTF-8.
    public static func parse(utf8 bytes: some Collection<UInt8>) throws(TOMLError) -> TOMLTable {
        guard let text = String(validating: bytes, as: UTF8.self) else {
            // Where the first bad byte is: the longest valid prefix is the text before it.
            var valid = 0
            var decoder = UTF8()
            var iterator = bytes.makeIterator()
            var lines = 1
            var lineStart = 0
            var offset = 0
            decoding: while true {
                switch decoder.decode(&iterator) {
                case .scalarValue(let scalar):
                    offset += UTF8.width(scalar)
                    valid = offset
                    if scalar == "\n" { lines += 1; lineStart = offset }
                case .emptyInput, .error: break decoding
                }
            }
            let column = 1 + Array(bytes)[lineStart..<valid].count { $0 & 0xC0 != 0x80 }
            throw TOMLError(line: lines, column: column, message: "the text is not valid UTF-8")
        }
        return try parse(text)
    }

    // MARK: State

    let bytes: [UInt8]
    var index = 0
    var line = 1
    /// Where the current line starts, for columns.
    var lineStart = 0
    let root = TOMLTableBuilder(origin: .header, line: 1)
    /// The table the last header opened, and its path.
    var current: TOMLTableBuilder
    var currentPath: [String] = []
    /// The key being read, for errors (see `TOMLError.key`).
    var context: [String]?
    /// How deep arrays and inline tables are nested where the parser is.
    var nesting = 0

    private init(bytes: [UInt8]) {
        self.bytes = bytes
        current = root
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    // MARK: Statements

    private mutating func parseDocument() throws(TOMLError) -> TOMLTable {
        while true {
            skipBlanks()
            guard let c = peek else { break }
            context = nil
            switch c {
            case UInt8(ascii: "#"):
                try skipComment()
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                try newline()
            case UInt8(ascii: "["):
                try parseHeader()
                try endOfStatement(after: "the table header")
            default:
                try parseKeyValue(into: current, path: currentPath)
                try endOfStatement(after: "the value")
            }
        }
        return root.build()
    }

    /// After a statement: blanks, perhaps a comment, then a newline or the end of the text.
    private mutating func endOfStatement(after what: String) throws(TOMLError) {
        skipBlanks()
        if peek == UInt8(ascii: "#") { try skipComment() }
        guard let c = peek else { return }
        guard c == UInt8(ascii: "\n") || c == UInt8(ascii: "\r") else {
            throw error("expected the end of the line after \(what), found \(found())")
        }
        try newline()
    }

    /// `[a.b]` or `[[a.b]]`.
    private mutating func parseHeader() throws(TOMLError) {
        let headerLine = line
        let headerColumn = column(of: index)
        index += 1
        // Until it is read, a header is in no table: errors name it, not the table before.
        currentPath = []
        let isArray = peek == UInt8(ascii: "[")
        if isArray { index += 1 }
        context = []
        let path = try parseKey(prefix: [])
        skipBlanks()
        let closing = isArray ? "']]' to close the array of tables header" : "']' to close the table header"
        guard peek == UInt8(ascii: "]") else { throw error("expected \(closing), found \(found())") }
        index += 1
        if isArray {
            guard peek == UInt8(ascii: "]") else { throw error("expected \(closing), found \(found())") }
            index += 1
        }
        let place = (line: headerLine, column: headerColumn)
        current = try isArray ? appendTable(at: path, place) : defineTable(at: path, place)
        currentPath = path
    }

    /// `key = value` into `table`, whose path is `path`.
    mutating func parseKeyValue(into table: TOMLTableBuilder, path: [String]) throws(TOMLError) {
        let keyLine = line
        let keyColumn = column(of: index)
        context = path
        let key = try parseKey(prefix: path)
        skipBlanks()
        guard peek == UInt8(ascii: "=") else {
            throw error("expected '=' after the key \(TOMLKey.written(key)), found \(found())")
        }
        index += 1
        skipBlanks()
        let value = try parseValue()
        context = path + key
        try assign(value, to: key, in: table, path: path, place: (keyLine, keyColumn))
    }

    /// A dotted key: parts separated by dots, blanks allowed around them. Sets `context` to
    /// `prefix` and the parts read so far as it goes.
    mutating func parseKey(prefix: [String]) throws(TOMLError) -> [String] {
        var parts: [String] = []
        while true {
            skipBlanks()
            parts.append(try parseSimpleKey())
            context = prefix + parts
            guard prefix.count + parts.count <= Self.maximumNesting else {
                throw error("the key has more than \(Self.maximumNesting) parts")
            }
            skipBlanks()
            guard peek == UInt8(ascii: ".") else { return parts }
            index += 1
        }
    }

    private mutating func parseSimpleKey() throws(TOMLError) -> String {
        guard let c = peek else { throw error("expected a key, found \(found())") }
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            guard !(peek(1) == c && peek(2) == c) else { throw error("a key cannot be a multi-line string") }
            return c == UInt8(ascii: "\"") ? try parseBasicString() : try parseLiteralString()
        case _ where TOMLKey.isBareKeyByte(c):
            let start = index
            while let b = peek, TOMLKey.isBareKeyByte(b) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self)
        default:
            throw error("expected a key (letters, digits, '_', '-' or a quoted string), found \(found())")
        }
    }

    // MARK: Tables

    typealias Place = (line: Int, column: Int)

    /// The table a dotted key or a header walks through on its way to `part`, created if
    /// missing. Headers may walk into any table and into the last table of an array of tables;
    /// dotted keys only into tables that dotted keys created.
    private func descend(
        into table: TOMLTableBuilder, _ part: String, path: [String], byHeader: Bool, _ place: Place
    ) throws(TOMLError) -> TOMLTableBuilder {
        guard let slot = table[part] else {
            let created = TOMLTableBuilder(origin: byHeader ? .implied : .dotted, line: place.line)
            table[part] = .init(item: .table(created), line: place.line, column: place.column)
            return created
        }
        let name = TOMLKey.written(path)
        switch slot.item {
        case .table(let next):
            guard byHeader || next.origin == .dotted else {
                let how = next.origin == .implied ? "a header opened it" : "a header defines it"
                throw error("cannot add to the table \(name) with a dotted key: \(how) (line \(next.line))", at: place)
            }
            return next
        case .tables(let list):
            guard byHeader else {
                throw error("cannot add to \(name) with a dotted key: it is an array of tables (line \(slot.line))", at: place)
            }
            return list[list.count - 1]
        case .value(let value):
            let what = if case .table = value { "an inline table, which cannot be extended" } else { value.kindWithArticle }
            throw error("\(name) is already \(what) (line \(slot.line))", at: place)
        }
    }

    private func parent(of path: [String], byHeader: Bool, from table: TOMLTableBuilder, prefix: [String], _ place: Place) throws(TOMLError) -> TOMLTableBuilder {
        var table = table
        for count in 1..<path.count {
            table = try descend(into: table, path[count - 1], path: prefix + path[..<count], byHeader: byHeader, place)
        }
        return table
    }

    /// `[path]`: defines the table, which must not be defined yet.
    private mutating func defineTable(at path: [String], _ place: Place) throws(TOMLError) -> TOMLTableBuilder {
        let parent = try parent(of: path, byHeader: true, from: root, prefix: [], place)
        let last = path[path.count - 1]
        let name = TOMLKey.written(path)
        guard let slot = parent[last] else {
            let table = TOMLTableBuilder(origin: .header, line: place.line)
            parent[last] = .init(item: .table(table), line: place.line, column: place.column)
            return table
        }
        switch slot.item {
        case .table(let table) where table.origin == .implied:
            table.origin = .header
            table.line = place.line
            return table
        case .table(let table):
            let how = table.origin == .dotted ? "by dotted keys" : "by a header"
            throw error("the table \(name) is already defined \(how) (line \(table.line))", at: place)
        case .tables:
            throw error("\(name) is already an array of tables (line \(slot.line)), not a table", at: place)
        case .value(let value):
            let what = if case .table = value { "an inline table" } else { value.kindWithArticle }
            throw error("\(name) is already \(what) (line \(slot.line))", at: place)
        }
    }

    /// `[[path]]`: a new table at the end of the array of tables, which this creates if missing.
    private mutating func appendTable(at path: [String], _ place: Place) throws(TOMLError) -> TOMLTableBuilder {
        let parent = try parent(of: path, byHeader: true, from: root, prefix: [], place)
        let last = path[path.count - 1]
        let table = TOMLTableBuilder(origin: .header, line: place.line)
        if let slot = parent[last] {
            let name = TOMLKey.written(path)
            switch slot.item {
            case .tables:
                break
            case .table:
                throw error("\(name) is already a table (line \(slot.line)), not an array of tables", at: place)
            case .value(let value):
                let what = if case .array = value { "an array, which cannot be extended by [[\(name)]]" } else { value.kindWithArticle }
                throw error("\(name) is already \(what) (line \(slot.line))", at: place)
            }
        } else {
            parent[last] = .init(item: .tables([table]), line: place.line, column: place.column)
            return table
        }
        // Out of the scope of `slot`, which held the array too: it grows in place.
        parent.appendTable(table, at: last)
        return table
    }

    /// `key = value` in `table`: the key must be new, and dotted parts may only pass through
    /// tables that dotted keys made.
    mutating func assign(_ value: TOMLValue, to key: [String], in table: TOMLTableBuilder, path: [String], place: Place) throws(TOMLError) {
        let parent = try parent(of: key, byHeader: false, from: table, prefix: path, place)
        let last = key[key.count - 1]
        if let slot = parent[last] {
            throw error("the key \(TOMLKey.written(path + key)) is already defined (line \(slot.line))", at: place)
        }
        parent[last] = .init(item: .value(value), line: place.line, column: place.column)
    }
}
