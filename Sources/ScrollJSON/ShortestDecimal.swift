/// The shortest decimal `digits × 10^exponent` that reads back as a given double, and of those
/// the closest: the digits `Double.description` prints, found with Ryu (Ulf Adams, "Ryū: fast
/// float-to-string conversion", PLDI 2018; github.com/ulfjack/ryu, Apache 2.0 or Boost 1.0).
///
/// Only for the magnitudes a state line is made of, 2⁻¹⁰ ≤ |x| < 2⁵⁰ (about 0.001 to 10¹⁵):
/// there Ryu's binary exponent is negative and the powers of five it needs are below 5²⁶, exact
/// in 64 bits, so no table of rounded powers is needed. Other values go to the standard
/// library (`JSONByteWriter.number`). docs/decisions.md, "Printing doubles", says why and how it
/// is checked against `description`.
struct ShortestDecimal {
    /// The decimal digits, at most 17 of them.
    var digits: UInt64
    /// The power of ten they are scaled by; always negative here (the value is never integral
    /// when it comes this way: `number` prints integral values as integers).
    var exponent: Int

    /// The biased binary exponents of 2⁻¹⁰ and 2⁴⁹: the range this type serves.
    static let exponentRange: ClosedRange<UInt64> = 1013...1072

    /// The shortest decimal of `magnitude` (non-negative), or nil outside ``exponentRange``.
    @inline(__always)
    init?(_ magnitude: Double) {
        let bits = magnitude.bitPattern
        let ieeeExponent = bits >> 52
        guard Self.exponentRange.contains(ieeeExponent) else { return nil }
        let ieeeMantissa = bits & (1 << 52 - 1)
        // m2 × 2^e2 is the value, with two more bits for the bounds' midpoints.
        let e2 = Int(ieeeExponent) - 1023 - 52 - 2
        let m2 = 1 << 52 | ieeeMantissa
        let mv = 4 * m2
        // The interval below is half as wide at a power of two.
        let mmShift: UInt64 = ieeeMantissa != 0 ? 1 : 0

        // The interval's bounds and the value, scaled by 10^q / 2^e2. In this range e2 is −64 to
        // −5, so q is 2 to 43: Ryu's branches for e2 ≥ 0 and for q ≤ 1 cannot run, the lower
        // bound's product is never exact (its `vmIsTrailingZeros` stays false, and whether a
        // bound may be taken never matters), and only the value's product may be (q < 63).
        let q = Self.log10Pow5(-e2) - 1
        let e10 = q + e2
        let i = -e2 - q
        let j = q + 125 - Self.pow5Bits(i)
        let multiplier = Self.pow5Split(i)
        var vr = Self.mulShift(mv, multiplier, j)
        var vp = Self.mulShift(mv + 2, multiplier, j)
        var vm = Self.mulShift(mv - 1 - mmShift, multiplier, j)
        var vrIsTrailingZeros = mv & (1 << UInt64(q) - 1) == 0

        // Remove digits while the interval still holds a shorter decimal.
        var removed = 0
        var output: UInt64
        if vrIsTrailingZeros {
            // The value is an exact decimal here (under 1 % of values): an exact tie rounds to
            // even.
            var lastRemovedDigit: UInt64 = 0
            while vp / 10 > vm / 10 {
                vrIsTrailingZeros = vrIsTrailingZeros && lastRemovedDigit == 0
                lastRemovedDigit = Self.removeDigit(&vr, &vp, &vm)
                removed += 1
            }
            if vrIsTrailingZeros, lastRemovedDigit == 5, vr % 2 == 0 { lastRemovedDigit = 4 }
            output = vr + (vr == vm || lastRemovedDigit >= 5 ? 1 : 0)
        } else {
            var roundUp = false
            // Two digits at a time first: most values lose two or three.
            if vp / 100 > vm / 100 {
                roundUp = vr % 100 >= 50
                vr /= 100
                vp /= 100
                vm /= 100
                removed += 2
            }
            while vp / 10 > vm / 10 {
                roundUp = Self.removeDigit(&vr, &vp, &vm) >= 5
                removed += 1
            }
            output = vr + (vr == vm || roundUp ? 1 : 0)
        }
        digits = output
        exponent = e10 + removed
    }

    /// Drops the last digit of the value and of both bounds; returns the value's.
    @inline(__always)
    static func removeDigit(_ vr: inout UInt64, _ vp: inout UInt64, _ vm: inout UInt64) -> UInt64 {
        let digit = vr % 10
        vr /= 10
        vp /= 10
        vm /= 10
        return digit
    }

    /// ⌊log₁₀ 5^e⌋, for 0 ≤ e ≤ 2620.
    @inline(__always)
    static func log10Pow5(_ e: Int) -> Int { (e &* 732_923) >> 20 }

    /// The bit length of 5^e (1 for e = 0), for 0 ≤ e ≤ 3528.
    @inline(__always)
    static func pow5Bits(_ e: Int) -> Int { ((e &* 1_217_359) >> 19) + 1 }

    /// 5^i shifted to be 125 bits long, as Ryu's table has it; exact for i < 26.
    @inline(__always)
    static func pow5Split(_ i: Int) -> UInt128 {
        UInt128(powersOfFive[i]) << (125 - pow5Bits(i))
    }

    /// 5⁰ … 5²⁵, exact in 64 bits (this range needs 5²¹ at the most).
    /// (Literals: the compiler lays them out at build time, with no lazy initialisation to
    /// check on every use.)
    static let powersOfFive: [UInt64] = [
        1, 5, 25, 125, 625, 3125, 15625, 78125, 390625, 1953125, 9765625, 48828125, 244140625,
        1220703125, 6103515625, 30517578125, 152587890625, 762939453125, 3814697265625,
        19073486328125, 95367431640625, 476837158203125, 2384185791015625, 11920928955078125,
        59604644775390625, 298023223876953125
    ]

    /// 10⁰ … 10¹⁶: a fraction's digits are split at most 16 places from their end (its whole
    /// part has one digit at least).
    static let powersOfTen: [UInt64] = [
        1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000, 10000000000,
        100000000000, 1000000000000, 10000000000000, 100000000000000, 1000000000000000,
        10000000000000000
    ]

    /// ⌊m × multiplier / 2^j⌋ for j ≥ 64, as Ryu computes it (the low product's low word does
    /// not reach the result).
    @inline(__always)
    static func mulShift(_ m: UInt64, _ multiplier: UInt128, _ j: Int) -> UInt64 {
        let low = UInt128(m) &* UInt128(UInt64(truncatingIfNeeded: multiplier))
        let high = UInt128(m) &* (multiplier >> 64)
        return UInt64(truncatingIfNeeded: ((low >> 64) &+ high) >> (j - 64))
    }
}
