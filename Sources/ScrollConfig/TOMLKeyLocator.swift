/// Finds the line where a dotted key is written in TOML source text.
///
/// TOMLKit hands back values without source positions, and `Configuration.set` reports the key
/// it rejects, not where it came from; this scanner maps keys back to lines. It understands
/// just enough TOML — `[table]` and `[[array]]` headers, dotted and quoted keys, inline tables,
/// arrays, all four string forms and comments — to attribute every key to its line, and it never
/// fails: on text TOMLKit rejected it still gets as far as it can, which is how a syntax error
/// learns which key it is in.
struct TOMLKeyLocator {
    /// Every key, table header and inline-table key, in source order, with its 1-based line.
    private(set) var entries: [(path: [String], line: Int)] = []
    /// The first line each dotted path appears on, including implied parents (`[a.b]` also
    /// places `a`).
    private var firstLines: [String: Int] = [:]

    private let bytes: [UInt8]
    private var index = 0
    private var line = 1
    /// The table the last `[header]` opened: at the end, the table the text ends in.
    private(set) var table: [String] = []
    /// The key whose value the text ends inside of (a multi-line array cut short), unless a
    /// part of it is empty (`""`).
    private(set) var unfinishedKey: String?
    /// The first place where toml++ 3.4, inside TOMLKit 0.6.0, fails an assertion instead of
    /// reporting a syntax error, which aborts the process: `Configuration.parse` must not hand
    /// it such text.
    private(set) var abortingSyntax: AbortingSyntax?
    /// The byte offset where the statement (header or key/value line) being scanned starts.
    private var statementStart = 0

    struct AbortingSyntax: Equatable {
        enum Context: Equatable {
            /// A `[table]` or `[[array]]` header whose key starts with a character no key can
            /// start with: `[=]`, `[[[a]]]`, a control character (marzer/tomlplusplus#301).
            case tableHeader
            /// An array item that starts with `}` or a non-ASCII line break (U+0085, U+2028,
            /// U+2029): `[}]`, `[1, }]`.
            case array
            /// A date-time whose time does not start with a digit: `1979-05-27Tx7:32:00Z`.
            case time
        }

        var context: Context
        /// The byte offset of the statement it is in: the text before it is whole statements.
        var statementOffset: Int
        var line: Int
        /// 1-based, in Unicode scalars as toml++ counts.
        var column: Int
        /// The offending character.
        var found: Unicode.Scalar
    }

    init(_ text: some StringProtocol) {
        bytes = Array(text.utf8)
        // toml++ skips a byte order mark; so must the scan, or it would take line 1 for text.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        scanDocument()
    }

    /// The line of `key` itself, if it is written in the text.
    func exactLine(of key: String) -> Int? {
        firstLines[key]
    }

    /// The line of `key`, else of its nearest enclosing table or key that is written (a missing
    /// `containers.main.header.max_height` points at `[containers.main.header]`).
    func line(of key: String) -> Int? {
        var parts = key.split(separator: ".", omittingEmptySubsequences: false)
        while !parts.isEmpty {
            if let line = firstLines[parts.joined(separator: ".")] { return line }
            parts.removeLast()
        }
        return nil
    }

    // MARK: Scanning

    private static let newline = UInt8(ascii: "\n")

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func peek(_ offset: Int) -> UInt8? {
        index + offset < bytes.count ? bytes[index + offset] : nil
    }

    private mutating func scanDocument() {
        while let c = current {
            switch c {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case Self.newline:
                line += 1
                index += 1
            case UInt8(ascii: "#"):
                skipComment()
            case UInt8(ascii: "["):
                statementStart = index
                checkHeaderStart()
                index += peek(1) == UInt8(ascii: "[") ? 2 : 1
                let headerLine = line
                table = scanKey()
                record(table, headerLine)
                skipRestOfLine()
            default:
                statementStart = index
                let keyLine = line
                let key = scanKey()
                guard !key.isEmpty else { skipRestOfLine(); continue }
                skipBlanks()
                if current == UInt8(ascii: "=") { index += 1 }
                record(table + key, keyLine)
                scanValue(recordingUnder: table + key)
                if current == nil, !(table + key).contains("") { unfinishedKey = (table + key).joined(separator: ".") }
                skipRestOfLine()
            }
        }
    }

    /// Notes the header at `index` when what toml++ would read as the start of its key is none:
    /// after `[`, blanks, a second `[` right after the first, and blanks again, a key starts
    /// with a bare key character or a quote; `]` and the end of the text are errors toml++
    /// reports itself, and so is `[` after blanks (`[ [a]]`).
    private mutating func checkHeaderStart() {
        var i = index + 1
        func skipBlanks() {
            while i < bytes.count, bytes[i] == UInt8(ascii: " ") || bytes[i] == UInt8(ascii: "\t") { i += 1 }
        }
        skipBlanks()
        if i < bytes.count, bytes[i] == UInt8(ascii: "[") {
            if i > index + 1 { return }
            i += 1
            skipBlanks()
        }
        guard i < bytes.count else { return }
        let c = bytes[i]
        guard !Self.isBareKeyByte(c), c != UInt8(ascii: "\""), c != UInt8(ascii: "'"), c != UInt8(ascii: "]") else { return }
        noteAbortingSyntax(.tableHeader, at: i)
    }

    /// Notes an array item at `index` that toml++ would hand to its value parser although it
    /// cannot start a value: `}` (`]`, `,` and `#` it handles before) or a line break it does
    /// not skip.
    private mutating func checkArrayItemStart() {
        let rest = bytes[index...]
        guard rest.first == UInt8(ascii: "}") || rest.starts(with: [0xC2, 0x85])
            || rest.starts(with: [0xE2, 0x80, 0xA8]) || rest.starts(with: [0xE2, 0x80, 0xA9]) else { return }
        noteAbortingSyntax(.array, at: index)
    }

    /// Notes a value at `index` that toml++ would read as a date and time (`YYYY-MM-DD`, then
    /// `T` or `t`) whose time does not start with a digit: its time parser asserts one.
    private mutating func checkDateTime() {
        func digit(_ offset: Int) -> Bool { peek(offset).map { (0x30...0x39).contains($0) } ?? false }
        guard [0, 1, 2, 3, 5, 6, 8, 9].allSatisfy(digit), peek(4) == UInt8(ascii: "-"), peek(7) == UInt8(ascii: "-"),
              peek(10) == UInt8(ascii: "T") || peek(10) == UInt8(ascii: "t"), peek(11) != nil, !digit(11) else { return }
        noteAbortingSyntax(.time, at: index + 11)
    }

    private mutating func noteAbortingSyntax(_ context: AbortingSyntax.Context, at i: Int) {
        guard abortingSyntax == nil else { return }
        let lineStart = bytes[..<i].lastIndex(of: Self.newline).map { $0 + 1 } ?? (bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0)
        let column = 1 + bytes[lineStart..<i].count(where: { $0 & 0xC0 != 0x80 })
        var scalars = String(decoding: bytes[i..<min(i + 4, bytes.count)], as: UTF8.self).unicodeScalars.makeIterator()
        abortingSyntax = AbortingSyntax(
            context: context, statementOffset: statementStart, line: line, column: column, found: scalars.next() ?? "\u{FFFD}"
        )
    }

    /// A dotted key: bare, `"basic"` or `'literal'` parts separated by dots. Empty when there
    /// is no key here.
    private mutating func scanKey() -> [String] {
        var parts: [String] = []
        while true {
            skipBlanks()
            guard let c = current else { break }
            if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                parts.append(scanQuotedKey(quote: c))
            } else if Self.isBareKeyByte(c) {
                let start = index
                while let b = current, Self.isBareKeyByte(b) { index += 1 }
                parts.append(String(decoding: bytes[start..<index], as: UTF8.self))
            } else {
                break
            }
            skipBlanks()
            guard current == UInt8(ascii: ".") else { break }
            index += 1
        }
        return parts
    }

    private mutating func scanQuotedKey(quote: UInt8) -> String {
        index += 1
        var name: [UInt8] = []
        while let c = current, c != quote, c != Self.newline {
            if quote == UInt8(ascii: "\""), c == UInt8(ascii: "\\"), let next = peek(1) {
                // Only the escapes a key plausibly holds; the name is for lookup, not display.
                name.append(next == UInt8(ascii: "t") ? UInt8(ascii: "\t") : next)
                index += 2
            } else {
                name.append(c)
                index += 1
            }
        }
        if current == quote { index += 1 }
        return String(decoding: name, as: UTF8.self)
    }

    /// Skips one value; keys of inline tables are recorded under `prefix` (nil inside arrays,
    /// whose tables have no dotted name).
    private mutating func scanValue(recordingUnder prefix: [String]?) {
        skipBlanks()
        guard let c = current else { return }
        switch c {
        case UInt8(ascii: "{"):
            index += 1
            scanSequence(until: UInt8(ascii: "}")) { locator, _ in
                let keyLine = locator.line
                let key = locator.scanKey()
                guard !key.isEmpty else { return }
                locator.skipBlanks()
                if locator.current == UInt8(ascii: "=") { locator.index += 1 }
                let path = prefix.map { $0 + key }
                if let path { locator.record(path, keyLine) }
                locator.scanValue(recordingUnder: path)
            }
        case UInt8(ascii: "["):
            index += 1
            scanSequence(until: UInt8(ascii: "]")) { locator, due in
                if due { locator.checkArrayItemStart() }
                locator.scanValue(recordingUnder: nil)
            }
        case UInt8(ascii: "\""), UInt8(ascii: "'"):
            scanString(quote: c)
        default:
            checkDateTime()
            while let b = current, !Self.endsScalar(b) { index += 1 }
        }
    }

    /// The items of an inline table or array up to `close`: newlines and comments between them
    /// are allowed (arrays in TOML 1.0, inline tables in 1.1), commas separate them. `item` is
    /// told whether an item is due there (first, or after a comma) or the text is malformed.
    private mutating func scanSequence(until close: UInt8, item: (inout TOMLKeyLocator, _ due: Bool) -> Void) {
        var due = true
        while let c = current {
            switch c {
            case close:
                index += 1
                return
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
            case UInt8(ascii: ","):
                index += 1
                due = true
            case Self.newline:
                line += 1
                index += 1
            case UInt8(ascii: "#"):
                skipComment()
            default:
                let start = index
                item(&self, due)
                due = false
                // Malformed text must not stall the scan.
                if index == start { index += 1 }
            }
        }
    }

    /// `"…"`, `'…'`, `"""…"""` or `'''…'''`, counting the newlines inside multi-line strings.
    private mutating func scanString(quote: UInt8) {
        let multiline = peek(1) == quote && peek(2) == quote
        index += multiline ? 3 : 1
        while let c = current {
            if c == UInt8(ascii: "\\"), quote == UInt8(ascii: "\"") {
                index += 1
                if current == Self.newline { line += 1 }
                if current != nil { index += 1 }
                continue
            }
            if c == Self.newline {
                guard multiline else { return }
                line += 1
            }
            if c == quote {
                if !multiline { index += 1; return }
                if peek(1) == quote, peek(2) == quote {
                    index += 3
                    // Up to two more quotes may end the content (`""""" ` is legal).
                    while current == quote { index += 1 }
                    return
                }
            }
            index += 1
        }
    }

    private mutating func record(_ path: [String], _ line: Int) {
        guard !path.isEmpty else { return }
        entries.append((path, line))
        for count in 1...path.count {
            let key = path.prefix(count).joined(separator: ".")
            if firstLines[key] == nil { firstLines[key] = line }
        }
    }

    private mutating func skipBlanks() {
        while let c = current, c == UInt8(ascii: " ") || c == UInt8(ascii: "\t") { index += 1 }
    }

    private mutating func skipComment() {
        while let c = current, c != Self.newline { index += 1 }
    }

    private mutating func skipRestOfLine() {
        skipComment()
    }

    private static func isBareKeyByte(_ c: UInt8) -> Bool {
        switch c {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"):
            return true
        default:
            return false
        }
    }

    private static func endsScalar(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ",") || c == UInt8(ascii: "]") || c == UInt8(ascii: "}") || c == UInt8(ascii: "#") || c == newline
    }
}
