extension JSONScanner {
    /// Reads a number, with its exact integer reading and its correctly rounded double.
    ///
    /// The numbers event logs and requests are made of (`-12.345`, `1226781`) take a one-pass
    /// path (`readPlainNumber`); every other text, valid or not, takes the general one, which
    /// gives the same result (a double is correctly rounded whichever way it is computed) and
    /// is what reports errors.
    public mutating func readNumber() throws(JSONError) -> JSONNumber {
        skipWhitespace()
        if let number = readPlainNumber() { return number }
        return try readNumberInGeneral()
    }

    /// `readNumber` without its fast path: every form JSON allows, and its errors.
    mutating func readNumberInGeneral() throws(JSONError) -> JSONNumber {
        skipWhitespace()
        switch byte(at: cursor) {
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): break
        default: throw failure(expected: "a number")
        }
        let start = cursor
        let digits = try scanNumber()
        let range = start..<cursor
        let double = digits.fastDouble ?? slowDouble(range, digits)
        return JSONNumber(range: range, double: double, integerValue: digits.integerValue)
    }

    /// Steps over a number (`-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`) and
    /// collects what is needed to convert it exactly.
    mutating func scanNumber() throws(JSONError) -> DecimalDigits {
        var digits = DecimalDigits()
        if byte(at: cursor) == UInt8(ascii: "-") {
            digits.negative = true
            cursor += 1
        }
        var integerDigits = 0
        let first = byte(at: cursor)
        if first == UInt8(ascii: "0") {
            cursor += 1
            if Self.isDigit(byte(at: cursor)) { throw JSONError(.leadingZero, column: cursor) }
        } else if Self.isDigit(first) {
            while Self.isDigit(byte(at: cursor)) {
                digits.append(bytes[cursor] &- UInt8(ascii: "0"))
                integerDigits += 1
                cursor += 1
            }
        } else {
            throw failure(expected: "a digit")
        }
        var leadingFractionZeros = 0
        if byte(at: cursor) == UInt8(ascii: ".") {
            cursor += 1
            guard Self.isDigit(byte(at: cursor)) else { throw failure(expected: "a digit") }
            while Self.isDigit(byte(at: cursor)) {
                let digit = bytes[cursor] &- UInt8(ascii: "0")
                if digits.isZero && digit == 0 {
                    leadingFractionZeros += 1
                } else {
                    digits.append(digit)
                }
                cursor += 1
            }
        }
        var exponent = 0
        if byte(at: cursor) | 0x20 == UInt8(ascii: "e") {
            cursor += 1
            var negativeExponent = false
            if byte(at: cursor) == UInt8(ascii: "-") || byte(at: cursor) == UInt8(ascii: "+") {
                negativeExponent = byte(at: cursor) == UInt8(ascii: "-")
                cursor += 1
            }
            guard Self.isDigit(byte(at: cursor)) else { throw failure(expected: "a digit") }
            while Self.isDigit(byte(at: cursor)) {
                // Saturate: beyond 10^±(10^9) every double is 0 or infinity anyway.
                if exponent < 1_000_000_000 {
                    exponent = exponent * 10 + Int(bytes[cursor] &- UInt8(ascii: "0"))
                }
                cursor += 1
            }
            if negativeExponent { exponent = -exponent }
        }
        digits.lead = integerDigits > 0 ? integerDigits - 1 + exponent : -(leadingFractionZeros + 1) + exponent
        return digits
    }

    @inline(__always)
    static func isDigit(_ b: UInt8) -> Bool {
        b &- UInt8(ascii: "0") < 10
    }

    /// The double of a number the fast path cannot do, through the standard library's
    /// correctly rounded parser. Very long numbers are first cut to 800 significant digits plus
    /// a sticky 1 when anything nonzero was cut: a double's rounding boundaries have at most
    /// 767 significant digits, so the result is the same, and the parser's work stays bounded.
    private func slowDouble(_ range: Range<Int>, _ digits: DecimalDigits) -> Double {
        let raw = UnsafeRawBufferPointer(rebasing: bytes[range])
        if raw.count <= 64 {
            return Double(String(decoding: raw, as: UTF8.self)) ?? .nan
        }
        let limit = 800
        var text: [UInt8] = []
        text.reserveCapacity(limit + 24)
        if digits.negative { text.append(UInt8(ascii: "-")) }
        var taken = 0
        var sticky = false
        for b in raw {
            if b | 0x20 == UInt8(ascii: "e") { break }
            guard Self.isDigit(b) else { continue }
            if taken == 0 && b == UInt8(ascii: "0") { continue }
            if taken < limit {
                text.append(b)
                taken += 1
            } else if b != UInt8(ascii: "0") {
                sticky = true
            }
        }
        guard taken > 0 else { return digits.negative ? -0.0 : 0.0 }
        var scale = digits.lead - taken + 1
        if sticky {
            text.append(UInt8(ascii: "1"))
            scale -= 1
        }
        text.append(UInt8(ascii: "e"))
        text.append(contentsOf: String(scale).utf8)
        return Double(String(decoding: text, as: UTF8.self)) ?? .nan
    }
}
