import ScrollJSON
import ScrollModel

/// The numbers of a transcript line, read straight from its bytes (no Foundation, no locale).
extension DebugEventsLineParser {
    /// A time token, `[+-]S[.F]s` with up to 12 digits of seconds and 6 of fraction, in µs.
    static func microseconds(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Timestamp? {
        var index = range.lowerBound
        let end = range.upperBound
        guard end - index >= 2, bytes[end - 1] == UInt8(ascii: "s") else { return nil }
        let negative = sign(bytes, &index)
        var seconds: Int64 = 0
        var digits = 0
        while index < end - 1, isDigit(bytes[index]) {
            seconds = seconds * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            digits += 1
            index += 1
            if digits > 12 { return nil }
        }
        guard digits > 0 else { return nil }
        var fraction: Int64 = 0
        var fractionDigits = 0
        if index < end - 1, bytes[index] == UInt8(ascii: ".") {
            index += 1
            while index < end - 1, isDigit(bytes[index]) {
                guard fractionDigits < 6 else { return nil }
                fraction = fraction * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
                fractionDigits += 1
                index += 1
            }
            guard fractionDigits > 0 else { return nil }
        }
        guard index == end - 1 else { return nil }
        for _ in fractionDigits..<6 { fraction *= 10 }
        let value = seconds * 1_000_000 + fraction
        return negative ? -value : value
    }

    /// Moves past a `+` or `-` at `index`, if one stands there; whether it was `-`.
    @inline(__always)
    private static func sign(_ bytes: UnsafeRawBufferPointer, _ index: inout Int) -> Bool {
        let byte = bytes[index]
        guard byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") else { return false }
        index += 1
        return byte == UInt8(ascii: "-")
    }

    /// A decimal as printf's `%d`, `%.1f` and `%.2f` print them: `[+-]digits[.digits]`, at
    /// most 40 bytes. Exactly the double nearest to the decimal, as `Double("…")` gives.
    static func decimal(_ bytes: UnsafeRawBufferPointer, _ range: Range<Int>) -> Double? {
        var index = range.lowerBound
        let end = range.upperBound
        guard end > index, end - index <= 40 else { return nil }
        let negative = sign(bytes, &index)
        var mantissa: UInt64 = 0
        var digits = 0
        var fractionDigits = 0
        var seenPoint = false
        var integerDigits = 0
        while index < end {
            let byte = bytes[index]
            if isDigit(byte) {
                if digits < 19 { mantissa = mantissa * 10 + UInt64(byte - UInt8(ascii: "0")) }
                digits += 1
                if seenPoint { fractionDigits += 1 } else { integerDigits += 1 }
            } else if byte == UInt8(ascii: "."), !seenPoint {
                seenPoint = true
            } else {
                return nil
            }
            index += 1
        }
        guard integerDigits > 0, !seenPoint || fractionDigits > 0 else { return nil }
        let magnitude: Double
        if let fast = ExactDecimal.double(mantissa: mantissa, digits: digits, exponent: -fractionDigits) {
            magnitude = fast
        } else {
            let text = String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
            guard let parsed = Double(text), parsed.isFinite else { return nil }
            return parsed
        }
        return negative ? -magnitude : magnitude
    }

    @inline(__always) static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || (0x09...0x0D).contains(byte)
    }

    @inline(__always) static func isDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    @inline(__always) static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
    }
}
