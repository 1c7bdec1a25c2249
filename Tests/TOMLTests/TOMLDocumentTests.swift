import TOML
import Testing

@Suite("TOML documents: encoding, newlines, comments, limits")
struct TOMLDocumentTests {
    @Test func emptyDocumentsAndComments() throws {
        #expect(try TOMLParser.parse("") == TOMLTable())
        #expect(try TOMLParser.parse("# only a comment\n\n   \t\n# é ✓\n") == TOMLTable())
        #expect(try TOMLParser.parse("a = 1 # after\n[t] # after a header\n")["t"] == .table(TOMLTable()))
    }

    @Test func aByteOrderMarkIsSkippedAndNotCounted() throws {
        let table = try TOMLParser.parse("\u{FEFF}a = 1\n")
        #expect(table.entry("a")?.column == 1)
        #expect(located("\u{FEFF}a = ?") == "1:5: expected a value (string, number, true, false, date-time, array or inline table), found '?'")
    }

    @Test func crlfEndsLinesButALoneCarriageReturnDoesNot() throws {
        let table = try TOMLParser.parse("a = 1\r\n\r\nb = 2\r\n")
        #expect(table.entries.map(\.line) == [1, 3])
        #expect(located("a = 1\rb = 2") == "1:6: a carriage return (U+000D) must be followed by a line feed")
        #expect(located("# x\r") == "1:4: a comment cannot contain U+000D")
    }

    @Test func commentsRefuseControlCharacters() {
        #expect(located("# a\u{0}b") == "1:4: a comment cannot contain U+0000")
        #expect(located("a = 1 # \u{7F}") == "1:9: a comment cannot contain U+007F")
        #expect(failure("# tab\there and é, \u{85} too") == nil)
    }

    @Test func columnsCountUnicodeScalars() {
        #expect(located("\"é✓😀\" = ?") == "1:9: expected a value (string, number, true, false, date-time, array or inline table), found '?'")
    }

    @Test func bytesMustBeUTF8() throws {
        #expect(try TOMLParser.parse(utf8: Array("a = \"é\"".utf8))["a"] == .string("é"))
        do {
            _ = try TOMLParser.parse(utf8: Array("a = 1\nb = \"é".utf8) + [0xFF, 0x22])
            Issue.record("invalid UTF-8 accepted")
        } catch {
            #expect("\(error)" == "line 2, column 7: the text is not valid UTF-8")
        }
        // An encoded surrogate is not UTF-8.
        #expect(throws: TOMLError.self) { try TOMLParser.parse(utf8: Array("a = \"".utf8) + [0xED, 0xA0, 0x80, 0x22]) }
    }

    @Test func nestingIsLimited() {
        let limit = TOMLParser.maximumNesting
        #expect(value(String(repeating: "[", count: limit) + String(repeating: "]", count: limit)) != nil)
        #expect(located("v = " + String(repeating: "[", count: limit + 1)) == "1:\(5 + limit): arrays and inline tables are nested more than \(limit) deep")
        // Keys inside inline tables count their enclosing keys, which reach the limit first.
        #expect(located("v = " + String(repeating: "{a=", count: limit + 1)) == "1:\(4 + 3 * limit): the key has more than \(limit) parts")
        let deepKey = Array(repeating: "a", count: limit).joined(separator: ".")
        #expect(failure(deepKey + " = 1") == nil)
        #expect(located("[" + deepKey + ".a]")?.hasSuffix("the key has more than \(limit) parts") == true)
        #expect(failure("[" + deepKey + "]\na = 1")?.message == "the key has more than \(limit) parts")
    }

    @Test func valuesAreWrittenBackAsTOML() throws {
        let text = #"s = "a\"b\\c\u0007\n", k = { "x y" = [1, 2.5, inf, -inf, nan, true, 07:32:00] }"#
        let table = try TOMLParser.parse("v = { " + text + " }")
        let written = try #require(table["v"]).description
        #expect(written == #"{ s = "a\"b\\c\u0007\n", k = { "x y" = [1, 2.5, inf, -inf, nan, true, 07:32:00] } }"#)
        #expect(TOMLKey.written(["a", "b c", "", "d\u{2028}"]) == #"a."b c".""."d\u2028""#)
    }
}
