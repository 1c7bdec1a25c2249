/// A number read from JSON, with both readings a field may need.
public struct JSONNumber: Hashable, Sendable {
    /// What the number is as a 64-bit integer, decided on the decimal text, not on a double
    /// (so `9007199254740993` is exact, `1.5` is fractional and `1815000.0` or `1.815e6` are
    /// integers).
    public enum IntegerValue: Hashable, Sendable {
        case exact(Int64)
        case fractional
        case outOfRange
    }

    /// The number's bytes in the line.
    public var range: Range<Int>
    /// The correctly rounded double; ±infinity when the magnitude exceeds the double range.
    public var double: Double
    public var integerValue: IntegerValue

    @inlinable
    public init(range: Range<Int>, double: Double, integerValue: IntegerValue) {
        self.range = range
        self.double = double
        self.integerValue = integerValue
    }

    /// The exact integer, when the number is one and fits in 64 bits.
    @inlinable
    public var integer: Int64? {
        if case .exact(let value) = integerValue { return value }
        return nil
    }
}

/// The decimal digits of a number as the scanner met them: the value is
/// `±mantissa × 10^(lead − kept + 1)`, plus digits beyond the 19th that did not fit.
struct DecimalDigits {
    var negative = false
    /// The first (at most) 19 significant digits; 19 always fit in a UInt64.
    var mantissa: UInt64 = 0
    var kept = 0
    /// Whether a nonzero digit beyond the 19th was dropped.
    var droppedNonZero = false
    /// The power of ten of the leading significant digit (meaningless when `kept == 0`).
    var lead = 0

    @inline(__always)
    mutating func append(_ digit: UInt8) {
        if kept < 19 {
            mantissa = mantissa &* 10 &+ UInt64(digit)
            kept += 1
        } else if digit != 0 {
            droppedNonZero = true
        }
    }

    var isZero: Bool { kept == 0 }

    /// The mantissa without trailing zeros, and the power of ten of its last digit.
    var trimmed: (mantissa: UInt64, digits: Int, scale: Int) {
        var m = mantissa
        var digits = kept
        var scale = lead - kept + 1
        while m != 0 && m % 10 == 0 {
            m /= 10
            digits -= 1
            scale += 1
        }
        return (m, digits, scale)
    }

    var integerValue: JSONNumber.IntegerValue {
        if isZero { return .exact(0) }
        // 10^19 > Int64.max: from there on, whatever the digits, it does not fit.
        if lead >= 19 { return .outOfRange }
        // With lead ≤ 18, a 20th significant digit is at 10^-1 or below.
        if droppedNonZero { return .fractional }
        let (m, _, scale) = trimmed
        if scale < 0 { return .fractional }
        // lead ≤ 18 keeps m × 10^scale below 10^19, which fits in a UInt64.
        var magnitude = m
        for _ in 0..<scale { magnitude &*= 10 }
        if negative {
            if magnitude <= UInt64(Int64.max) { return .exact(-Int64(magnitude)) }
            return magnitude == UInt64(Int64.max) + 1 ? .exact(.min) : .outOfRange
        }
        return magnitude <= UInt64(Int64.max) ? .exact(Int64(magnitude)) : .outOfRange
    }

    /// The double, when the quick exact method applies: at most 15 digits (exact in a double)
    /// times or divided by a power of ten up to 10^22 (also exact) is one correctly rounded
    /// operation (Clinger's fast path). Nil when the text must be parsed the slow way.
    var fastDouble: Double? {
        if isZero { return negative ? -0.0 : 0.0 }
        guard !droppedNonZero else { return nil }
        let (m, digits, scale) = trimmed
        guard let result = ExactDecimal.double(mantissa: m, digits: digits, exponent: scale) else { return nil }
        return negative ? -result : result
    }
}
