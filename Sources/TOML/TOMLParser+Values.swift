/// Values: which kind starts here, arrays and inline tables.
extension TOMLParser {
    mutating func parseValue() throws(TOMLError) -> TOMLValue {
        guard let c = peek else { throw error("expected a value, found end of file") }
        switch c {
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            if peek(1) == c, peek(2) == c { return .string(try parseMultiLineString(quote: c)) }
            return .string(c == UInt8(ascii: "\"") ? try parseBasicString() : try parseLiteralString())
        case UInt8(ascii: "t"):
            try expectWord("true")
            return .boolean(true)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return .boolean(false)
        case UInt8(ascii: "["):
            return try parseArray()
        case UInt8(ascii: "{"):
            return try parseInlineTable()
        case UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "i"), UInt8(ascii: "n"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return try parseNumberOrDateTime()
        default:
            throw error("expected a value (string, number, true, false, date-time, array or inline table), found \(found())")
        }
    }

    private mutating func expectWord(_ word: String) throws(TOMLError) {
        for (offset, byte) in word.utf8.enumerated() where peek(offset) != byte {
            throw error("expected a value (\(word)?), found \(found(at: index + offset))", at: index + offset)
        }
        index += word.utf8.count
    }

    private mutating func enterNesting() throws(TOMLError) {
        nesting += 1
        guard nesting <= Self.maximumNesting else {
            throw error("arrays and inline tables are nested more than \(Self.maximumNesting) deep")
        }
    }

    /// `[ value, value, ]`: newlines and comments allowed between items, a trailing comma too.
    private mutating func parseArray() throws(TOMLError) -> TOMLValue {
        try enterNesting()
        let startLine = line
        index += 1
        var items: [TOMLValue] = []
        while true {
            try skipBlanksNewlinesAndComments()
            if peek == UInt8(ascii: "]") { break }
            items.append(try parseValue())
            try skipBlanksNewlinesAndComments()
            if peek == UInt8(ascii: ",") {
                index += 1
                continue
            }
            guard peek == UInt8(ascii: "]") else {
                let start = peek == nil && startLine != line ? " (the array starts on line \(startLine))" : ""
                throw error("expected ',' or ']' after an array item, found \(found())\(start)")
            }
            break
        }
        index += 1
        nesting -= 1
        return .array(items)
    }

    /// `{ key = value, key = value }` on one line (TOML 1.0: no newline between the braces but
    /// inside a value, no trailing comma). Complete once closed: nothing adds to it later.
    private mutating func parseInlineTable() throws(TOMLError) -> TOMLValue {
        try enterNesting()
        let path = context ?? []
        index += 1
        let table = TOMLTableBuilder(origin: .dotted, line: line)
        skipBlanks()
        if peek != UInt8(ascii: "}") {
            while true {
                skipBlanks()
                try parseKeyValue(into: table, path: path)
                skipBlanks()
                guard peek != UInt8(ascii: ",") else {
                    index += 1
                    skipBlanks()
                    if peek == UInt8(ascii: "}") { throw error("an inline table cannot end with a comma (TOML 1.0)") }
                    continue
                }
                guard peek == UInt8(ascii: "}") else {
                    let newline = peek == UInt8(ascii: "\n") || peek == UInt8(ascii: "\r")
                    throw error("expected ',' or '}' in the inline table, found \(found())" + (newline ? " (TOML 1.0 keeps an inline table on one line)" : ""))
                }
                break
            }
        }
        index += 1
        nesting -= 1
        context = path
        return .table(table.build())
    }
}
