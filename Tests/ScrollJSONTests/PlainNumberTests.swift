import Testing
@testable import ScrollJSON

/// `readNumber`'s one-pass path (`readPlainNumber`) against the general one: the same double
/// (bit for bit), the same integer reading, the same end, and the same errors.
@Suite struct PlainNumberTests {
    /// What the general path alone makes of `text`.
    func inGeneral(_ text: String) -> Result<(JSONNumber, Int), JSONError> {
        reading(text) { (scanner) throws(JSONError) in try scanner.readNumberInGeneral() }
    }

    func reading(_ text: String, _ body: (inout JSONScanner) throws(JSONError) -> JSONNumber) -> Result<(JSONNumber, Int), JSONError> {
        Array(text.utf8).withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            do throws(JSONError) {
                let number = try body(&scanner)
                return .success((number, scanner.position))
            } catch {
                return .failure(error)
            }
        }
    }

    /// Whether `text` takes the one-pass path.
    func isPlain(_ text: String) -> Bool {
        Array(text.utf8).withUnsafeBytes { raw in
            var scanner = JSONScanner(raw)
            return scanner.readPlainNumber() != nil
        }
    }

    func expectSame(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let fast = reading(text) { (scanner) throws(JSONError) in try scanner.readNumber() }
        let general = inGeneral(text)
        switch (fast, general) {
        case let (.success((a, endA)), .success((b, endB))):
            #expect(a.double.bitPattern == b.double.bitPattern, "\(text): \(a.double) vs \(b.double)", sourceLocation: sourceLocation)
            #expect(a.integerValue == b.integerValue, "\(text)", sourceLocation: sourceLocation)
            #expect(a.range == b.range && endA == endB, "\(text)", sourceLocation: sourceLocation)
        case let (.failure(a), .failure(b)):
            #expect(a == b, "\(text)", sourceLocation: sourceLocation)
        default:
            Issue.record("\(text): \(fast) vs \(general)", sourceLocation: sourceLocation)
        }
    }

    @Test func takesTheNumbersOfEventLinesInOnePass() {
        for text in ["0", "-0", "7", "12276559", "-13.896", "0.895", "120", "-0.0", "1815000.0", "0.000123",
                     "999999999999999999", "-999999999999999999", "9007199254740993", "123456789012345.6",
                     "0.123456789012345", "1.5,", "2}", "3.25 ", "4.5.6", "5x"] {
            #expect(isPlain(text), "\(text)")
        }
    }

    @Test func leavesTheRestToTheGeneralPath() {
        for text in ["1e5", "1E5", "1.5e-3", "-2.5E+2", "01", "-01", "1.", "-", "-x", ".5", "+1", "",
                     "1234567890123456789", "9999999999999999999", "12345678901234567890", "0.12345678901234567891",
                     "1234567890.123456789", "123456789012345.6789", "0.1234567890123456789", "9007199254740993.5", "123456789012345678.9", "0." + String(repeating: "0", count: 30) + "1"] {
            #expect(!isPlain(text), "\(text)")
        }
    }

    @Test func givesWhatTheGeneralPathGivesOnTheEdges() throws {
        let cases = [
            "0", "-0", "0.0", "-0.0", "0.000", "-0.000000", "1", "-1", "9", "10", "100.000",
            // Integers: 2^53 and around it, and the longest the one-pass path takes.
            "9007199254740992", "9007199254740993", "9007199254740995", "-9007199254740993",
            "18014398509481985", "999999999999999999", "-999999999999999999", "100000000000000000",
            "123456789012345678", "576460752303423489",
            // Fractions: Clinger's bound (mantissa 2^53) on both sides, and halfway cases.
            "9007199.254740992", "9007199.254740993", "900719925474099.2", "900719925474099.3",
            "0.9007199254740992", "0.9007199254740993", "0.1", "0.2", "0.3", "0.30000000000000004",
            "1.0000000000000002", "1.00000000000000011", "2.5", "-812.25", "1815000.0", "1815000.5",
            "0.000000000000000001", "0.0000000000000000001", "0.00000000000000000001", "1.7976931348623157",
            "4.9406564584124654", "123456.789", "-17169.145069393537", "9225.01737899558",
            // Exponents, errors, and what may follow a number.
            "1e0", "1e22", "1e23", "5e-324", "1e400", "-1e400", "1.5e3", "01", "-01", "1.", "1.e5", "-", "-.5",
            "1.5.", "1,", "1}", "1 ", "1x", "-0x", "1e", "1e+", "1.5E-2",
        ]
        for text in cases { expectSame(text) }
        // And against the standard library's correctly rounded parser.
        for text in cases {
            guard case .success(let (number, _)) = reading(text, { (scanner) throws(JSONError) in try scanner.readNumber() }),
                  let expected = Double(text) else { continue }
            #expect(number.double.bitPattern == expected.bitPattern, "\(text)")
        }
    }

    @Test func givesWhatTheGeneralPathGivesOnRandomText() {
        var random = SplitMix(state: 2026)
        let endings = ["", ",", "}", " ", ".", "e", "E5", "x", "]"]
        for _ in 0..<100_000 {
            var text = random.next() % 3 == 0 ? "-" : ""
            let integerDigits = Int(random.next() % 21)
            for index in 0..<integerDigits {
                // Mostly well formed; now and then a leading zero.
                let low: UInt64 = index == 0 && random.next() % 8 != 0 ? 1 : 0
                text += String(low + random.next() % (10 - low))
            }
            if random.next() % 3 != 0 {
                text += "."
                let places = Int(random.next() % 22)
                // Zeros are frequent, so that all-zero fractions and long runs come up.
                for _ in 0..<places { text += random.next() % 3 == 0 ? "0" : String(random.next() % 10) }
            }
            text += endings[Int(random.next() % UInt64(endings.count))]
            expectSame(text)
        }
    }

    @Test func readsEveryDigitCountAroundTheLimits() {
        var random = SplitMix(state: 7)
        for integerDigits in 1...19 {
            for places in 0...20 {
                for _ in 0..<20 {
                    var text = String(1 + random.next() % 9)
                    for _ in 1..<integerDigits { text += String(random.next() % 10) }
                    if places > 0 {
                        text += "."
                        for _ in 0..<places { text += String(random.next() % 10) }
                    }
                    expectSame(text)
                    expectSame("-" + text)
                }
            }
        }
    }
}
