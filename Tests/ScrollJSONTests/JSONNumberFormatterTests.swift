@testable import ScrollJSON
import Testing

@Suite struct JSONNumberFormatterTests {
    func text(_ value: Double) -> String { written(value) }

    func text(_ value: Int64) -> String {
        var buffer: [UInt8] = []
        JSONNumberFormatter.append(value, to: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    @Test func formatsIntegers() {
        #expect(text(Int64(0)) == "0")
        #expect(text(Int64(7)) == "7")
        #expect(text(Int64(-42)) == "-42")
        #expect(text(Int64.max) == "9223372036854775807")
        #expect(text(Int64.min) == "-9223372036854775808")
    }

    /// Every length from 1 to 20 digits, both signs, at and around each power of ten, and a
    /// spread of values between: the text is the standard library's.
    @Test func formatsIntegersOfEveryLengthAsTheStandardLibraryDoes() {
        var values: [Int64] = [0, 1, -1, 9, 10, 11, 99, 100, 101, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1]
        var power: Int64 = 1
        for _ in 0..<19 {
            values += [power - 1, power, power + 1, -power, -(power - 1), power * 9 / 10 + 7]
            if power <= Int64.max / 10 { power *= 10 } else { break }
        }
        var random = SystemRandomNumberGenerator()
        for _ in 0..<10_000 {
            let bits = Int64(truncatingIfNeeded: (random.next() as UInt64) >> UInt64.random(in: 1...63, using: &random))
            values += [bits, -bits]
        }
        for value in values {
            #expect(text(value) == String(value), "\(value)")
        }
    }

    @Test func formatsDoubles() {
        #expect(text(120.0) == "120")
        #expect(text(-0.0) == "0")
        #expect(text(-3.0) == "-3")
        #expect(text(123.5) == "123.5")
        #expect(text(0.1) == "0.1")
        #expect(text(9_007_199_254_740_991 as Double) == "9007199254740991")
        #expect(text(9_007_199_254_740_992 as Double) == "9007199254740992")
        #expect(text(9_007_199_254_740_994 as Double) == "9.007199254740994e+15")
        #expect(text(1e15 + 0.5) == "1000000000000000.5")
        #expect(text(1e300) == "1e+300")
        #expect(text(.leastNonzeroMagnitude) == "5e-324")
        #expect(text(1.0 / 3.0) == "0.3333333333333333")
        #expect(text(.nan) == "0")
        #expect(text(.infinity) == "1.7976931348623157e+308")
    }

    /// Integral doubles below 2^53 print as their integer, both signs, every length; their
    /// neighbours, a fraction apart, do not.
    @Test func formatsIntegralDoublesAsIntegers() {
        var values: [Double] = [1, 2, 36, 9_007_199_254_740_991]
        var power = 1.0
        while power < 9_007_199_254_740_992 {
            values += [power, power - 1, power + 1, power * 3]
            power *= 2
        }
        power = 10
        while power < 9_007_199_254_740_992 {
            values += [power, power - 1, power + 1]
            power *= 10
        }
        for value in values where value > 0 && value < 9_007_199_254_740_992 {
            #expect(text(value) == String(Int64(value)), "\(value)")
            #expect(text(-value) == String(-Int64(value)), "\(-value)")
            for neighbour in [value.nextUp, value.nextDown, -value.nextUp] where neighbour != neighbour.rounded(.towardZero) {
                #expect(text(neighbour) == neighbour.description, "\(neighbour)")
            }
        }
        #expect(text(0.0) == "0")
        #expect(text(-0.0) == "0")
        #expect(text(-.nan) == "0")
        #expect(text(-.infinity) == "-1.7976931348623157e+308")
    }

    @Test func matchesTheStandardLibrarysShortestText() throws {
        var random = SplitMix(state: 99)
        for _ in 0..<20_000 {
            let value = Double(bitPattern: random.next())
            guard value.isFinite else { continue }
            let written = text(value)
            let integral = value.magnitude < 9_007_199_254_740_992 && value == value.rounded(.towardZero)
            if !integral && !value.description.hasSuffix(".0") { #expect(written == value.description) }
            let reread = try number(written).double
            #expect(reread == value, "\(value)")
        }
    }
}
