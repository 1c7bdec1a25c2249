@testable import ScrollJSON
import Testing

@Suite struct JSONScannerTests {
    @Test func acceptsValidJSON() {
        let valid = [
            "{}", "[]", #"{"a":1}"#, " \t{ \"a\" : [ 1 , 2.5e-3 , -0 , true , false , null , \"x\" ] }\r\n",
            #"{"a":{"b":{"c":[[],[{}],{"d":"e"}]}}}"#, #""\u00e9\ud83d\ude00""#, "-12.5E+10", "0", "[0e0]",
            "\"caf\u{E9} \u{2713} \u{1F600}\"",
        ]
        for text in valid {
            #expect(jsonError(text) == nil, "\(text)")
        }
    }

    @Test func decodesEveryEscape() throws {
        let text = #""a\"b\\c\/d\b\f\n\r\t\u00e9\u2713\ud83d\ude00\u0000z""#
        let decoded = try scanning(text) { (scanner) throws(JSONError) in try scanner.readString() }
        #expect(decoded == "a\"b\\c/d\u{8}\u{C}\n\r\t\u{E9}\u{2713}\u{1F600}\u{0}z")
    }

    @Test func reportsWhatIsWrongAndWhere() {
        let cases: [(String, String)] = [
            (#"{"a":1 "b":2}"#, "expected ',' or '}' at column 8"),
            (#"{"a" 1}"#, "expected ':' at column 6"),
            (#"{"a":}"#, "expected a value at column 6"),
            (#"{"a":1,}"#, "expected a key at column 8"),
            (#"{1:2}"#, "expected a key or '}' at column 2"),
            (#"{"a":01}"#, "number with a leading zero at column 6"),
            (#"{"a":1.}"#, "expected a digit at column 8"),
            (#"{"a":1e}"#, "expected a digit at column 8"),
            (#"{"a":-x}"#, "expected a digit at column 7"),
            (#"{"a":+1}"#, "expected a value at column 6"),
            (#"{"a":"\q"}"#, "invalid escape sequence at column 7"),
            (#"{"a":"\u12G4"}"#, "invalid \\u escape (expected four hex digits) at column 11"),
            (#"{"a":"\ud83d"}"#, "unpaired UTF-16 surrogate in \\u escape at column 7"),
            (#"{"a":"\ud83dx"}"#, "unpaired UTF-16 surrogate in \\u escape at column 7"),
            (#"{"a":"\ud83d\u0041"}"#, "unpaired UTF-16 surrogate in \\u escape at column 7"),
            (#"{"a":"\ude00"}"#, "unpaired UTF-16 surrogate in \\u escape at column 7"),
            ("{\"a\":\"x\u{1}\"}", "unescaped control character 0x01 in string at column 8"),
            ("{\"a\":\"x\ty\"}", "unescaped control character 0x09 in string at column 8"),
            (#"{"a":tru}"#, "expected 'true' at column 6"),
            (#"{"a":nul,"#, "expected 'null' at column 6"),
            (#"{"a":1} x"#, "unexpected characters after the value at column 9"),
            (#"{"a":1}}"#, "unexpected characters after the value at column 8"),
            ("[1,]", "expected a value at column 4"),
            (#"{"a":[1 2]}"#, "expected ',' or ']' at column 9"),
            (#"{"a":1"#, "unexpected end of line at column 7 (expected ',' or '}')"),
            ("", "unexpected end of line at column 1 (expected a value)"),
        ]
        for (text, message) in cases {
            #expect(jsonError(text)?.description == message, "\(text)")
        }
    }

    @Test func rejectsMalformedUTF8() {
        let prefix = Array(#"{"a":""#.utf8)
        let suffix = Array(#""}"#.utf8)
        let bad: [[UInt8]] = [
            [0xFF], [0x80], [0xC0, 0x80], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xC3, 0x41],
        ]
        for sequence in bad {
            #expect(jsonError(prefix + sequence + suffix) == JSONError(.invalidUTF8, column: 7), "\(sequence)")
        }
        // Outside strings only ASCII structure is JSON.
        #expect(jsonError([0xC3, 0xA9]) == JSONError(.expected("a value"), column: 1))
        // The longest valid forms pass.
        #expect(jsonError(prefix + [0xF4, 0x8F, 0xBF, 0xBF, 0xEF, 0xBF, 0xBF, 0xDF, 0xBF] + suffix) == nil)
    }

    @Test func everyPrefixOfAValidLineEndsUnexpectedly() {
        // A truncated line (the recorder killed mid-write) must read as "ended early", never as
        // "malformed", wherever the cut falls: inside keys, escapes, UTF-8, numbers, literals.
        let line = Array(#"{"t":-1815000.25e+2,"k\u00e9y":["caf\u00e9","\ud83d\ude00",true,false,null,{}],"n":"é✓😀"}"#.utf8)
        #expect(jsonError(line) == nil)
        for length in 0..<line.count {
            let error = jsonError(Array(line[..<length]))
            #expect(error?.isUnexpectedEnd == true, "prefix \(length): \(String(describing: error))")
            #expect(error?.column == length + 1)
        }
    }

    @Test func limitsNestingWithoutCrashing() {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(jsonError(deepest) == nil)
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect(jsonError(tooDeep)?.description == "nesting deeper than 64 levels at column 65")
        // Far beyond the limit, in arrays and in objects: an error, no stack overflow.
        #expect(jsonError(String(repeating: "[", count: 200_000)) == JSONError(.tooDeep(limit: 64), column: 65))
        #expect(jsonError(String(repeating: #"{"a":"#, count: 100_000))?.kind == .tooDeep(limit: 64))
    }

    @Test func comparesKeysIncludingEscapedOnes() throws {
        let matches = try scanning(#"{"t":1,"\u0074":2,"ty":3}"#) { (scanner) throws(JSONError) -> [Bool] in
            try scanner.beginObject()
            var result: [Bool] = []
            while let key = try scanner.nextKey() {
                result.append(scanner.key(key, is: "t"))
                try scanner.skipValue()
            }
            return result
        }
        #expect(matches == [true, true, false])
    }

    @Test func readsIntegersExactlyFromTheirDecimalText() throws {
        let cases: [(String, JSONNumber.IntegerValue)] = [
            ("0", .exact(0)), ("-0", .exact(0)), ("1815000", .exact(1_815_000)),
            ("1815000.0", .exact(1_815_000)), ("1.815e6", .exact(1_815_000)), ("181500000e-2", .exact(1_815_000)),
            ("0.0001e4", .exact(1)), ("9007199254740993", .exact(9_007_199_254_740_993)),
            ("9223372036854775807", .exact(.max)), ("-9223372036854775808", .exact(.min)),
            ("9223372036854775808", .outOfRange), ("-9223372036854775809", .outOfRange),
            ("1e19", .outOfRange), ("1e999999999999", .outOfRange), ("1.5", .fractional), ("-0.5", .fractional),
            ("1e-999999999999", .fractional), ("1234567890123456789.0123", .fractional),
            ("100000000000000000000000e-5", .exact(1_000_000_000_000_000_000)),
        ]
        for (text, expected) in cases {
            #expect(try number(text).integerValue == expected, "\(text)")
        }
    }

    @Test func readsDoublesCorrectlyRounded() throws {
        let cases: [(String, Double)] = [
            ("0.1", 0.1), ("123.5", 123.5), ("-812.25", -812.25), ("0.30000000000000004", 0.30000000000000004),
            ("5e-324", .leastNonzeroMagnitude), ("2.2250738585072014e-308", 2.2250738585072014e-308),
            ("1.7976931348623157e308", .greatestFiniteMagnitude), ("1e400", .infinity), ("-1e400", -.infinity),
            ("1e-400", 0), ("9007199254740993", 9_007_199_254_740_992), ("123456789012345678901234567890", 1.2345678901234568e29),
        ]
        for (text, expected) in cases {
            #expect(try number(text).double == expected, "\(text)")
        }
        #expect(try number("-0").double.sign == .minus)
        // Long numbers take the bounded slow path; their value is still exact.
        let long = "0." + String(repeating: "0", count: 2000) + "1e2000"
        #expect(try number(long).double == 0.1)
        let ones = "1" + String(repeating: "0", count: 5000) + "e-5000"
        #expect(try number(ones).double == 1)
        #expect(try number(ones).integerValue == .exact(1))
        // A halfway case decided only by a digit far beyond the 800th.
        let halfway = "9007199254740993." + String(repeating: "0", count: 1000) + "1"
        #expect(try number(halfway).double == 9_007_199_254_740_994)
        #expect(try number("9007199254740993e-0").double == 9_007_199_254_740_992)
    }

    @Test func doublesRoundTripThroughTheirShortestText() throws {
        var random = SplitMix(state: 42)
        for _ in 0..<20_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            let parsed = try number(value.description).double
            #expect(parsed.bitPattern == value.bitPattern, "\(value)")
        }
    }
}
