import TOML
import Testing

@Suite("TOML strings: basic, literal, multi-line, escapes")
struct TOMLStringTests {
    @Test func basicStringsTakeEveryEscape() {
        #expect(value(#""a\b\t\n\f\r\"\\z""#) == .string("a\u{8}\t\n\u{C}\r\"\\z"))
        #expect(value(#""\u00E9\U0001F600\u0000""#) == .string("é😀\u{0}"))
        #expect(value("\"tab\tinside\"") == .string("tab\tinside"))
        #expect(value("\"\"") == .string(""))
    }

    @Test func literalStringsTakeNoEscapes() {
        #expect(value(#"'C:\Users\nodejs'"#) == .string(#"C:\Users\nodejs"#))
        #expect(value(#"'<\i\c*\s*>'"#) == .string(#"<\i\c*\s*>"#))
        #expect(value("''") == .string(""))
    }

    @Test func multiLineBasicStrings() {
        // The newline after the opening quotes is left out; CRLF becomes a line feed.
        #expect(value("\"\"\"\nRoses\r\nViolets\"\"\"") == .string("Roses\nViolets"))
        // A backslash at the end of a line drops it and the blanks and newlines after it.
        #expect(value("\"\"\"The quick \\\n\n   brown \\  \t\n  fox.\"\"\"") == .string("The quick brown fox."))
        // One or two quotes inside, and right before the closing three.
        #expect(value("\"\"\"a \"b\" \"\"c\"\"\"\"\"") == .string("a \"b\" \"\"c\"\""))
        #expect(value(String(repeating: "\"", count: 8)) == .string("\"\""))
        #expect(value("\"\"\"\\\"\\\"\\\"\"\"\"") == .string("\"\"\""))
    }

    @Test func multiLineLiteralStrings() {
        #expect(value("'''\nThe first newline is\ntrimmed in raw strings.\n'''") == .string("The first newline is\ntrimmed in raw strings.\n"))
        #expect(value("'''I [dw]on't need \\d{2} apples'''") == .string(#"I [dw]on't need \d{2} apples"#))
        #expect(value("'''''a'''''") == .string("''a''"))
    }

    @Test func stringMistakes() {
        #expect(located(#"v = "\x41""#) == #"1:6: unknown escape '\' followed by 'x' (TOML 1.0 has \b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX)"#)
        #expect(located(#"v = "\uD800""#) == #"1:6: \uD800 is not a Unicode scalar value (a surrogate or above 10FFFF)"#)
        #expect(located(#"v = "\U00110000""#) == #"1:6: \U00110000 is not a Unicode scalar value (a surrogate or above 10FFFF)"#)
        #expect(located(#"v = "\u12G4""#) == "1:10: expected 4 hexadecimal digits after '\\u', found 'G'")
        #expect(located("v = \"a\u{7}b\"") == "1:7: a string cannot contain U+0007; write it as an escape")
        #expect(located("v = 'a\u{7F}'") == "1:7: a literal string cannot contain U+007F")
        #expect(located("v = \"abc\nw = 1") == "1:9: expected '\"' to end the string, found end of line (use \"\"\" for a string of several lines)")
        #expect(located("v = 'abc") == "1:9: expected \"'\" to end the string, found end of file")
        #expect(located("v = \"\"\"\nabc\n") == "3:1: expected \"\"\" to end the string that starts on line 1, found end of file")
        // A backslash followed by blanks must end the line.
        #expect(located("v = \"\"\"a\\  b\"\"\"") == #"1:9: unknown escape '\' followed by U+0020 (TOML 1.0 has \b \t \n \f \r \" \\ \uXXXX \UXXXXXXXX)"#)
        // A sixth quote follows the string.
        #expect(located("v = \"\"\"a" + String(repeating: "\"", count: 6)) == "1:14: expected the end of the line after the value, found '\"'")
        // A lone carriage return is no newline.
        #expect(located("v = \"\"\"a\rb\"\"\"") == "1:9: a carriage return (U+000D) must be followed by a line feed")
    }
}
