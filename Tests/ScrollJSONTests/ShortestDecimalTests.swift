@testable import ScrollJSON
import Testing

/// `ShortestDecimal` (Ryu over the magnitudes of a state line) against the standard library's
/// `description`, which the lines printed before it and which every recording and golden file
/// holds: the bytes must be the same for every double it serves.
@Suite struct ShortestDecimalTests {
    /// How many values each sweep draws (a one-off run of 10 000 000 found no difference
    /// either: docs/decisions.md, "Printing doubles").
    let samples = 100_000

    /// A fraction written as the standard library writes it (integral values are written as
    /// integers, without its ".0").
    func expectSameText(_ value: Double, sourceLocation: SourceLocation = #_sourceLocation) {
        guard value.isFinite, value != value.rounded(.towardZero) else { return }
        #expect(written(value) == value.description, "bits 0x\(String(value.bitPattern, radix: 16))", sourceLocation: sourceLocation)
    }

    @Test func servesExactlyTheRangeOfAStateLinesFractions() {
        #expect(ShortestDecimal(0x1p-10) != nil)
        #expect(ShortestDecimal(0x1p-10.nextDown) == nil)
        #expect(ShortestDecimal(0x1p50.nextDown) != nil)
        #expect(ShortestDecimal(0x1p50) == nil)
        #expect(ShortestDecimal(0.26343076105340285)?.digits == 26_343_076_105_340_285)
        #expect(ShortestDecimal(0.26343076105340285)?.exponent == -17)
        #expect(ShortestDecimal(2169.2699162408308)?.digits == 21_692_699_162_408_308)
        #expect(ShortestDecimal(2169.2699162408308)?.exponent == -13)
        #expect(ShortestDecimal(0.1)?.digits == 1)
        #expect(ShortestDecimal(0.1)?.exponent == -1)
    }

    @Test func writesFractionsAsTheStandardLibraryDoes() {
        #expect(written(9.061270858929106) == "9.061270858929106")
        #expect(written(-2169.2699162408308) == "-2169.2699162408308")
        #expect(written(0.001) == "0.001")
        #expect(written(0.0009765625) == "0.0009765625")
        #expect(written(1125899906842623.5) == "1125899906842623.5")
        #expect(written(0.5) == "0.5")
        #expect(written(1.0 / 3.0) == "0.3333333333333333")
        #expect(written(2.0 / 3.0) == "0.6666666666666666")
        #expect(written(0.3) == "0.3")
        #expect(written(0.1 + 0.2) == "0.30000000000000004")
    }

    /// Random bit patterns across the whole range, both signs.
    @Test func everyBitPatternInTheRange() {
        var random = SplitMix(state: 0x5EED_D70A)
        for _ in 0..<samples {
            let exponent = UInt64.random(in: ShortestDecimal.exponentRange, using: &random)
            let bits = exponent << 52 | random.next() & (1 << 52 - 1)
            let value = Double(bitPattern: bits)
            #expect(ShortestDecimal(value) != nil)
            expectSameText(value)
            expectSameText(-value)
        }
    }

    /// The values a scroll model makes: short decimals, their neighbours one ulp away (the
    /// rounding interval's edges), and the arithmetic of offsets and velocities.
    @Test func shortDecimalsTheirNeighboursAndArithmetic() {
        var random = SplitMix(state: 42)
        for _ in 0..<samples / 4 {
            let places = Int.random(in: 1...17, using: &random)
            let scale = (0..<places).reduce(1.0) { power, _ in power * 10 }
            let value = Double(Int64.random(in: 1...999_999_999_999, using: &random)) / scale
            expectSameText(value)
            expectSameText(value.nextUp)
            expectSameText(value.nextDown)
            let product = value * Double.random(in: 0.5...2000, using: &random) / 7
            expectSameText(product)
        }
    }

    /// Values with few significant bits, a / 2^f: their exact decimals are short enough that
    /// the shortest one is often the exact value itself, and a removed digit an exact tie that
    /// rounds to even — at every magnitude of the range, where random bit patterns make such
    /// values only above 2^37.
    @Test func exactBinaryFractionsAndTheirTies() {
        var random = SplitMix(state: 7)
        for exponent in -10..<50 {
            for bits in [8, 12, 16, 20, 24, 30, 36, 42] {
                for _ in 0..<40 {
                    let significand = Double(UInt64.random(in: 1..<(1 << UInt64(bits)), using: &random) | 1)
                    let value = Double(sign: .plus, exponent: exponent - bits + 1, significand: significand)
                    guard ShortestDecimal(value) != nil else { continue }
                    expectSameText(value)
                }
            }
        }
        #expect(written(0.0010995864868164062) == "0.0010995864868164062")
        #expect(written(1.1611862182617188) == "1.1611862182617188")
        #expect(written(1970.5658569335938) == "1970.5658569335938")
        #expect(written(1689287.3627929688) == "1689287.3627929688")
    }

    /// The doubles next to integers, below and above, where a fraction's whole part is taken
    /// from the double (truncated) rather than from its decimal digits: the two must agree.
    @Test func neighboursOfIntegers() {
        var random = SplitMix(state: 5)
        var integers: [Double] = [1, 2, 9, 10, 99, 100, 999, 1000, 65535, 65536, 999_999, 1_000_000]
        for _ in 0..<samples / 10 {
            // Integers of every magnitude up to 2^50, more of them small.
            let bits = 1 + Int(random.next() % 50)
            integers.append(Double(random.next() >> UInt64(64 - bits)))
        }
        for integer in integers where integer >= 1 {
            var below = integer.nextDown
            var above = integer.nextUp
            for _ in 0..<3 {
                expectSameText(below)
                expectSameText(above)
                below = below.nextDown
                above = above.nextUp
            }
        }
    }

    /// Powers of two and ten and the values around them, where the rounding interval is
    /// lopsided (a power of two) or a decimal is exact.
    @Test func powersAndTheirNeighbours() {
        for exponent in -10..<50 {
            let power = Double(sign: .plus, exponent: exponent, significand: 1)
            for value in [power, power.nextUp, power.nextDown, power * 1.5, power + 0.5] { expectSameText(value) }
        }
        var power = 0.001
        while power < 1e15 {
            for value in [power, power.nextUp, power.nextDown, power * 5, power * 0.5 + 0.25] { expectSameText(value) }
            power *= 10
        }
    }
}
