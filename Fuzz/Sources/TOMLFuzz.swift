import TOML

/// The TOML reader (`TOMLParser.parse(utf8:)`) on any bytes, valid UTF-8 or not.
///
/// Invariants: an error has a line of the input (or the one after its last newline, where the
/// text ended too soon), a column from 1 and a message of one line of printable text; every key
/// of a document that parses is on a line of the input; and the document written back as TOML
/// (every table inline, every string escaped, as `TOMLValue.writtenWhole` writes them) parses to
/// the same values.
enum TOMLFuzz {
    static func run(_ bytes: UnsafeRawBufferPointer) {
        let lines = lineCount(bytes)
        let table: TOMLTable
        do {
            table = try TOMLParser.parse(utf8: bytes)
        } catch {
            require((1...lines + 1).contains(error.line), "error on line \(error.line) of \(lines): \(error)")
            require(error.column >= 1, "error at column \(error.column): \(error)")
            require(!error.message.isEmpty, "an error without a message")
            require(printable(error.description), "a message with a control character: \(error.description.debugDescription)")
            return
        }
        checkPlaces(table, lines: lines)

        let written = table.entries.map { TOMLKey.writtenWhole([$0.key]) + " = " + $0.value.writtenWhole + "\n" }.joined()
        let again: TOMLTable
        do {
            again = try TOMLParser.parse(written)
        } catch {
            // Tables written inline nest as deep as their headers did, which may pass the limit
            // on nesting that headers do not count against.
            if error.message.contains("nested more than") { return }
            require(false, "written back, the document does not parse: \(error)\n\(written.debugDescription)")
            return
        }
        require(same(.table(table), .table(again)), "written back, the document reads differently:\n\(written.debugDescription)")
    }

    private static func checkPlaces(_ table: TOMLTable, lines: Int) {
        for entry in table {
            require((1...max(lines, 1)).contains(entry.line) && entry.column >= 1, "key \(entry.key.debugDescription) at \(entry.line):\(entry.column) of \(lines) lines")
            visit(entry.value) { checkPlaces($0, lines: lines) }
        }
    }

    private static func visit(_ value: TOMLValue, _ body: (TOMLTable) -> Void) {
        switch value {
        case .table(let table): body(table)
        case .array(let items): for item in items { visit(item, body) }
        default: break
        }
    }

    /// Equal values, with NaN equal to NaN.
    private static func same(_ a: TOMLValue, _ b: TOMLValue) -> Bool {
        switch (a, b) {
        case let (.float(x), .float(y)): return x == y || (x.isNaN && y.isNaN)
        case let (.array(x), .array(y)): return x.count == y.count && zip(x, y).allSatisfy(same)
        case let (.table(x), .table(y)):
            return x.count == y.count && zip(x.entries, y.entries).allSatisfy { $0.key == $1.key && same($0.value, $1.value) }
        default: return a == b
        }
    }

    static func printable(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { !TOMLKey.needsEscape($0) }
    }
}
