extension JSONScanner {
    /// A number without an exponent and with at most 19 digits (at most 18 before the point),
    /// read in one pass: nil, with nothing consumed, for any other text — exponents, longer
    /// numbers, leading zeros, errors — which `readNumberInGeneral` then reads or rejects.
    ///
    /// Exact by construction, not by approximation: the digits form an integer `m` below 10¹⁹
    /// (exact in a UInt64), and the value is `m / 10^places`.
    /// - Without a fraction, the double is the conversion of `m`, which rounds correctly.
    /// - With one, when `m ≤ 2⁵³` both `m` and `10^places` (places ≤ 19 ≤ 22) are exact
    ///   doubles, and their quotient is one correctly rounded division (Clinger's fast path);
    ///   larger `m` go the general way.
    /// The integer reading is the integer part when the fraction is all zeros (`1815000.0`).
    /// docs/decisions.md, "Reading numbers in one pass", says how it is checked.
    @inline(__always)
    mutating func readPlainNumber() -> JSONNumber? {
        let start = cursor
        var i = start
        let negative = byte(at: i) == UInt8(ascii: "-")
        if negative { i += 1 }
        let integerStart = i
        var mantissa: UInt64 = 0
        var digit = byte(at: i) &- UInt8(ascii: "0")
        guard digit < 10 else { return nil }
        if digit == 0 {
            i += 1
            // `01`: a leading zero, which the general path reports.
            if Self.isDigit(byte(at: i)) { return nil }
        } else {
            repeat {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                i += 1
                digit = byte(at: i) &- UInt8(ascii: "0")
            } while digit < 10
        }
        let integerDigits = i - integerStart
        // Below 10¹⁸, the integer part fits an Int64 with either sign.
        guard integerDigits <= 18 else { return nil }
        let integerPart = mantissa
        var places = 0
        var fractionBits: UInt8 = 0
        if byte(at: i) == UInt8(ascii: ".") {
            i += 1
            let fractionStart = i
            digit = byte(at: i) &- UInt8(ascii: "0")
            while digit < 10 {
                mantissa = mantissa &* 10 &+ UInt64(digit)
                fractionBits |= digit
                i += 1
                digit = byte(at: i) &- UInt8(ascii: "0")
            }
            places = i - fractionStart
            // `1.` is an error; more than 19 digits may not fit the mantissa.
            guard places > 0, integerDigits + places <= 19 else { return nil }
        }
        guard byte(at: i) | 0x20 != UInt8(ascii: "e") else { return nil }
        var double: Double
        if places == 0 {
            double = Double(mantissa)
        } else {
            guard mantissa <= 1 << 53 else { return nil }
            double = Double(mantissa) / ExactDecimal.powersOfTen[places]
        }
        if negative { double = -double }
        let magnitude = Int64(bitPattern: integerPart)
        let integerValue: JSONNumber.IntegerValue = fractionBits == 0 ? .exact(negative ? -magnitude : magnitude) : .fractional
        cursor = i
        return JSONNumber(range: start..<i, double: double, integerValue: integerValue)
    }
}
