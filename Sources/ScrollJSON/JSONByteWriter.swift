/// Writes JSON text through a pointer into memory its owner has already reserved.
///
/// This is the encoders' hot path: appending to an array byte by byte pays a capacity and a
/// uniqueness check per byte, which costs more than formatting the numbers. The owner reserves
/// an upper bound of what it will write (`Array.appendJSON(maxCount:_:)`), the writer fills it.
public struct JSONByteWriter {
    @usableFromInline var cursor: UnsafeMutablePointer<UInt8>

    /// The most bytes `number(_:)` or `integer(_:)` writes ("-1.7976931348623157e+308" is 24).
    public static let maxNumberLength = 32

    @inlinable
    init(cursor: UnsafeMutablePointer<UInt8>) {
        self.cursor = cursor
    }

    /// A static ASCII fragment of JSON (keys, punctuation), as is.
    /// Always inlined: at a call site the text is a constant, so the copy becomes a few moves
    /// instead of a call to this and one to memcpy (a state line writes a dozen of them).
    @inlinable @inline(__always)
    public mutating func raw(_ text: StaticString) {
        let count = text.utf8CodeUnitCount
        cursor.update(from: text.utf8Start, count: count)
        cursor += count
    }

    @inlinable
    public mutating func byte(_ byte: UInt8) {
        cursor.pointee = byte
        cursor += 1
    }

    @inlinable
    public mutating func bytes(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress else { return }
        cursor.update(from: base, count: bytes.count)
        cursor += bytes.count
    }

    public mutating func integer(_ value: Int64) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        digits(value.magnitude, count: Self.digitCount(value.magnitude))
    }

    /// How many decimal digits `value` has (1 for 0): ⌊log₁₀⌋ estimated from the bit length
    /// (1233 / 4096 ≈ log₁₀ 2, exact or one too many) and corrected by one comparison, where
    /// counting up power by power cost a comparison per digit (a timestamp has 9).
    @inline(__always)
    static func digitCount(_ value: UInt64) -> Int {
        // `| 1` gives 0 one digit and changes no other count: 10^k is even for k ≥ 1.
        let odd = value | 1
        let estimate = ((64 &- odd.leadingZeroBitCount) &* 1233) >> 12
        return odd < integerPowersOfTen[estimate] ? estimate : estimate &+ 1
    }

    /// 10⁰ … 10¹⁹, every power of ten a UInt64 holds (a literal: laid out at build time).
    static let integerPowersOfTen: [UInt64] = [
        1, 10, 100, 1000, 10000, 100000, 1000000, 10000000, 100000000, 1000000000, 10000000000,
        100000000000, 1000000000000, 10000000000000, 100000000000000, 1000000000000000,
        10000000000000000, 100000000000000000, 1000000000000000000, 10000000000000000000,
    ]

    /// A decimal `digits × 10^exponent` with exponent < 0, as `description` writes it: "12.5",
    /// "0.0625". `magnitude` is the double it is the shortest decimal of.
    ///
    /// The whole part is the double's, truncated (one conversion), not the digits divided by
    /// 10^places (a 64-bit division by a variable, 40 to 90 cycles): they are equal. The
    /// decimal lies in the double's rounding interval, and no integer does, since the double is
    /// not integral and below 2⁵³ every integer is a double of its own: the interval, which
    /// holds no other double, is between two integers, so all of it truncates alike.
    @inline(__always)
    mutating func fraction(_ decimal: ShortestDecimal, magnitude: Double) {
        let places = -decimal.exponent
        let whole = UInt64(magnitude)
        if whole != 0 {
            digits(whole, count: Self.digitCount(whole))
            byte(UInt8(ascii: "."))
            digits(decimal.digits &- whole &* ShortestDecimal.powersOfTen[places], count: places)
        } else {
            raw("0.")
            digits(decimal.digits, count: places)
        }
    }

    /// `value` in exactly `count` digits, zeros first when it has fewer: eight digits at a time
    /// from the end in 32-bit arithmetic, two digits per look-up (a state line's fractions
    /// have 16 or 17 digits, its timestamps and seqs 4 to 10).
    @inline(__always)
    mutating func digits(_ value: UInt64, count: Int) {
        var rest = value
        var p = cursor + count
        while p - cursor > 8 {
            let (high, low) = rest.quotientAndRemainder(dividingBy: 100_000_000)
            p -= 8
            Self.eightDigits(UInt32(truncatingIfNeeded: low), at: p)
            rest = high
        }
        var small = UInt32(truncatingIfNeeded: rest)
        let pairs = Self.digitPairs.utf8Start
        while p - cursor >= 2 {
            let pair = Int(small % 100) &* 2
            small /= 100
            p -= 2
            p[0] = pairs[pair]
            p[1] = pairs[pair &+ 1]
        }
        if p > cursor { cursor.pointee = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: small) }
        assert(p > cursor ? small < 10 : small == 0, "\(value) has more than \(count) digits")
        cursor += count
    }

    /// `value` (below 10⁸) as exactly eight digits at `p`.
    @inline(__always)
    static func eightDigits(_ value: UInt32, at p: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        let (high, low) = value.quotientAndRemainder(dividingBy: 10_000)
        func pair(_ pair: UInt32, at offset: Int) {
            p[offset] = pairs[Int(pair) &* 2]
            p[offset &+ 1] = pairs[Int(pair) &* 2 &+ 1]
        }
        pair(high / 100, at: 0)
        pair(high % 100, at: 2)
        pair(low / 100, at: 4)
        pair(low % 100, at: 6)
    }

    /// "00", "01", … "99" back to back: two digits by one look-up (a static string: no lazy
    /// initialisation to check on every use).
    private static let digitPairs: StaticString = "00010203040506070809101112131415161718192021222324252627282930313233343536373839404142434445464748495051525354555657585960616263646566676869707172737475767778798081828384858687888990919293949596979899"


    /// A double as the shortest text that parses back to it; integral values without ".0";
    /// -0 as 0; NaN as 0 and ±infinity as ±1.7976931348623157e+308, since JSON has neither and
    /// one bad value must not make a whole line invalid (the model never produces them).
    public mutating func number(_ value: Double) {
        // 0 and -0, a third of a state line's numbers (the axis that does not scroll).
        if value == 0 {
            byte(UInt8(ascii: "0"))
            return
        }
        var value = value
        if !value.isFinite {
            value = value.isNaN ? 0 : (value < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude)
        }
        // Integral values below 2^53 are exact integers: the integer path is faster and drops
        // the ".0". Integral is tested by truncating to an integer and back, both exact in this
        // range, instead of calling libm's `trunc`.
        if value.magnitude < 9_007_199_254_740_992 {
            let truncated = Int64(value)
            if Double(truncated) == value {
                integer(truncated)
                return
            }
        }
        // The magnitudes of a state line (a fraction between 0.001 and 10^15): Ryu's digits,
        // written as `description` writes them (`ShortestDecimal`).
        if let decimal = ShortestDecimal(value.magnitude) {
            // Shortest digits never end in a zero (the interval would hold one digit fewer), and
            // a value that is not integral has a fraction.
            assert(decimal.digits % 10 != 0 && decimal.exponent < 0, "\(value): \(decimal)")
            if value < 0 { byte(UInt8(ascii: "-")) }
            fraction(decimal, magnitude: value.magnitude)
            return
        }
        // Double's TextOutputStreamable conformance formats on the stack and hands the bytes to
        // `_writeASCII`: no String is made.
        var sink = PointerSink(cursor: cursor)
        value.write(to: &sink)
        cursor = sink.cursor
        // Integral values from 2^53 up to 10^16 come out as "9007199254740992.0".
        if (cursor - 2).pointee == UInt8(ascii: "."), (cursor - 1).pointee == UInt8(ascii: "0") {
            cursor -= 2
        }
    }
}

/// The text stream `Double.write(to:)` writes through, straight into the reserved memory.
struct PointerSink: TextOutputStream {
    var cursor: UnsafeMutablePointer<UInt8>

    mutating func write(_ string: String) {
        for byte in string.utf8 {
            cursor.pointee = byte
            cursor += 1
        }
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        guard let base = buffer.baseAddress else { return }
        cursor.update(from: base, count: buffer.count)
        cursor += buffer.count
    }
}

extension Array where Element == UInt8 {
    /// Appends what `body` writes, which must be at most `maxCount` bytes, straight into the
    /// array's spare capacity (grown as appends grow it, so a reused buffer stops growing): no
    /// scratch memory, no copy.
    @inlinable
    public mutating func appendJSON(maxCount: Int, _ body: (inout JSONByteWriter) -> Void) {
        append(addingCapacity: maxCount) { span in
            span.withUnsafeMutableBufferPointer { buffer, count in
                let base = buffer.baseAddress! + count
                var writer = JSONByteWriter(cursor: base)
                body(&writer)
                let written = writer.cursor - base
                precondition(written <= buffer.count - count, "JSONByteWriter overran its reservation")
                count += written
            }
        }
    }
}
