import TOML
import Testing

@Suite("TOML keys, tables, arrays of tables, inline tables, and their places")
struct TOMLTableTests {
    @Test func bareQuotedDottedAndEmptyKeys() throws {
        let table = try TOMLParser.parse(
            """
            bare_key-1 = 1
            "127.0.0.1" = 2
            'quoted "key"' = 3
            "ʎǝʞ" = 4
            "" = 5
            site."google.com" = true
            a . b . c = 6
            """
        )
        #expect(table.keys == ["bare_key-1", "127.0.0.1", "quoted \"key\"", "ʎǝʞ", "", "site", "a"])
        #expect(table["site"] == .table(TOMLTable(entries: [.init(key: "google.com", value: .boolean(true), line: 6, column: 1)])))
        #expect(table["a"]?.table?["b"]?.table?["c"] == .integer(6))
    }

    @Test func everyKeyKeepsItsLineAndColumn() throws {
        let table = try TOMLParser.parse(
            """
            # comment
            title = "x"

            [owner]
              name = \"\"\"
            two lines\"\"\"
              dob = 1979-05-27
            [servers.alpha]
            ip = { addr = "10.0.0.1", port.number = 80 }
            """
        )
        let places = table.entries.map { "\($0.key)@\($0.line):\($0.column)" }
        #expect(places == ["title@2:1", "owner@4:1", "servers@8:1"])
        let owner = try #require(table["owner"]?.table)
        #expect(owner.entries.map { "\($0.key)@\($0.line):\($0.column)" } == ["name@5:3", "dob@7:3"])
        let alpha = try #require(table["servers"]?.table?["alpha"]?.table)
        #expect(alpha.entry("ip")?.line == 9)
        let ip = try #require(alpha["ip"]?.table)
        #expect(ip.entries.map { "\($0.key)@\($0.line):\($0.column)" } == ["addr@9:8", "port@9:27"])
    }

    @Test func tablesMayBeDefinedInAnyOrderOnce() throws {
        let table = try TOMLParser.parse("[x.y.z.w]\na = 1\n[x]\nb = 2\n[x.y]\nc = 3\n")
        #expect(table["x"]?.table?.keys == ["y", "b"])
        #expect(table["x"]?.table?["y"]?.table?.keys == ["z", "c"])
        // Sub-tables of a table that dotted keys made.
        let fruit = try TOMLParser.parse("[fruit]\napple.color = \"red\"\n[fruit.apple.texture]\nsmooth = true\n")
        #expect(fruit["fruit"]?.table?["apple"]?.table?.keys == ["color", "texture"])
    }

    @Test func arraysOfTables() throws {
        let table = try TOMLParser.parse(
            """
            [[fruits]]
            name = "apple"
            [fruits.physical]
            color = "red"
            [[fruits.varieties]]
            name = "red delicious"
            [[fruits.varieties]]
            name = "granny smith"
            [[fruits]]
            name = "banana"
            """
        )
        let fruits = try #require(table["fruits"]?.array)
        #expect(fruits.count == 2)
        #expect(fruits[0].table?["physical"]?.table?["color"] == .string("red"))
        #expect(fruits[0].table?["varieties"]?.array?.compactMap { $0.table?["name"]?.string } == ["red delicious", "granny smith"])
        #expect(fruits[1].table?["name"] == .string("banana"))
        #expect(table.entry("fruits")?.line == 1)
    }

    @Test func arraysMixKindsAndSpanLines() {
        #expect(value("[ 1, 'a', [2.5, true], { x = 1 }, ]") == .array([
            .integer(1), .string("a"), .array([.float(2.5), .boolean(true)]),
            .table(TOMLTable(entries: [.init(key: "x", value: .integer(1), line: 1, column: 1)])),
        ]))
        #expect(value("[\n  1, # one\n\n  2 # two\n]") == .array([.integer(1), .integer(2)]))
        #expect(value("[]") == .array([]))
        #expect(value("{}") == .table(TOMLTable()))
    }

    @Test func redefinitionsAreRefused() {
        #expect(located("a = 1\na = 2") == "2:1: the key a is already defined (line 1)")
        #expect(located("[a]\n[a]") == "2:1: the table a is already defined by a header (line 1)")
        #expect(located("[a.b]\n[a]\n[a]") == "3:1: the table a is already defined by a header (line 2)")
        #expect(located("[a]\nb.c = 1\n[a.b]") == "3:1: the table a.b is already defined by dotted keys (line 2)")
        #expect(located("a = 1\n[a]") == "2:1: a is already an integer (line 1)")
        #expect(located("a = 1\n[a.b]") == "2:1: a is already an integer (line 1)")
        #expect(located("[[a]]\n[a]") == "2:1: a is already an array of tables (line 1), not a table")
        #expect(located("[a]\n[[a]]") == "2:1: a is already a table (line 1), not an array of tables")
        #expect(located("a = []\n[[a]]") == "2:1: a is already an array, which cannot be extended by [[a]] (line 1)")
        #expect(located("a.b = 1\na.b.c = 2") == "2:1: a.b is already an integer (line 1)")
        #expect(located("[a.b.c]\n[a]\nb.c.d = 1") == "3:1: cannot add to the table a.b with a dotted key: a header opened it (line 1)")
        #expect(located("[a.b]\n[a]\nb.c = 1") == "3:1: cannot add to the table a.b with a dotted key: a header defines it (line 1)")
        #expect(located("[[a]]\n[b]\n[a]\nx = 1") == "3:1: a is already an array of tables (line 1), not a table")
    }

    @Test func inlineTablesCannotBeExtended() {
        #expect(located("a = { b = 1 }\na.c = 2") == "2:1: a is already an inline table, which cannot be extended (line 1)")
        #expect(located("a = { b = 1 }\n[a]") == "2:1: a is already an inline table (line 1)")
        #expect(located("a = { b = 1 }\n[a.c]") == "2:1: a is already an inline table, which cannot be extended (line 1)")
        #expect(located("a = { b = 1, b = 2 }") == "1:14: the key a.b is already defined (line 1)")
        #expect(located("a = { b.c = 1, b = 2 }") == "1:16: the key a.b is already defined (line 1)")
        #expect(located("a = [{ b = 1 }]\n[[a]]") == "2:1: a is already an array, which cannot be extended by [[a]] (line 1)")
    }

    @Test func inlineTablesStayOnOneLineWithoutATrailingComma() {
        #expect(located("a = { b = 1,\n c = 2 }") == "1:13: expected a key (letters, digits, '_', '-' or a quoted string), found end of line")
        #expect(located("a = { b = 1\n}") == "1:12: expected ',' or '}' in the inline table, found end of line (TOML 1.0 keeps an inline table on one line)")
        #expect(located("a = { b = 1, }") == "1:14: an inline table cannot end with a comma (TOML 1.0)")
        // Inside a value, newlines are the value's business.
        #expect(value("{ b = [\n1,\n2] }")?.table?["b"] == .array([.integer(1), .integer(2)]))
    }

    @Test func headerMistakes() {
        #expect(located("[a") == "1:3: expected ']' to close the table header, found end of file")
        #expect(located("[[a]") == "1:5: expected ']]' to close the array of tables header, found end of file")
        #expect(located("[[a] ]") == "1:5: expected ']]' to close the array of tables header, found U+0020")
        #expect(located("[]") == "1:2: expected a key (letters, digits, '_', '-' or a quoted string), found ']'")
        #expect(located("[a.]") == "1:4: expected a key (letters, digits, '_', '-' or a quoted string), found ']'")
        #expect(located("[a] b = 1") == "1:5: expected the end of the line after the table header, found 'b'")
        #expect(located("['''a''']") == "1:2: a key cannot be a multi-line string")
    }

    @Test func keyValueMistakes() {
        #expect(located("a") == "1:2: expected '=' after the key a, found end of file")
        #expect(located("a = ") == "1:5: expected a value, found end of file")
        #expect(located("a = 1 b = 2") == "1:7: expected the end of the line after the value, found 'b'")
        #expect(located("= 1") == "1:1: expected a key (letters, digits, '_', '-' or a quoted string), found '='")
        #expect(located("a b = 1") == "1:3: expected '=' after the key a, found 'b'")
        #expect(located(#""a\u0007" x"#) == #"1:11: expected '=' after the key "a\u0007", found 'x'"#)
        #expect(located("[1, 2]") == "1:3: expected ']' to close the table header, found ','")
    }

    /// An error names the key being read and the table it is in.
    @Test func errorsNameTheirKeyAndTable() {
        let inValue = failure("[server]\nports = [80,\n  8x0]\n")
        #expect(inValue?.key == ["server", "ports"])
        #expect(inValue?.table == ["server"])
        #expect(inValue?.line == 3)
        #expect(failure("[server]\nname = { first = 1, last = ? }")?.key == ["server", "name", "last"])
        let header = failure("[server]\n[client.x\n")
        #expect(header?.key == ["client", "x"])
        #expect(header?.table == [])
        let between = failure("[server]\n!\n")
        #expect(between?.key == ["server"])
        #expect(between?.table == ["server"])
    }
}
