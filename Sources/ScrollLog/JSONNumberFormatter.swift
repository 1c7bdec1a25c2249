/// Writes numbers as JSON text straight into a byte buffer.
///
/// Doubles use the standard library's shortest representation that parses back to the same
/// value, so every finite double round-trips exactly; integral values print without ".0".
/// JSON has no NaN or infinity and a consumer must never see them, so they are clamped: NaN
/// prints as 0 and ±infinity as ±1.7976931348623157e+308 (the largest finite double). The
/// model never produces them; clamping keeps one bad value from making a whole line invalid.
public enum JSONNumberFormatter {
    public static func append(_ value: Int, to buffer: inout [UInt8]) {
        append(Int64(value), to: &buffer)
    }

    public static func append(_ value: Int64, to buffer: inout [UInt8]) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        append(magnitude: value.magnitude, to: &buffer)
    }

    private static func append(magnitude: UInt64, to buffer: inout [UInt8]) {
        if magnitude < 10 {
            buffer.append(UInt8(ascii: "0") &+ UInt8(magnitude))
            return
        }
        // Digits come out last first: write them at the end of a fixed stack buffer.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in
            var v = magnitude
            var i = 20
            while v != 0 {
                i -= 1
                digits[i] = UInt8(ascii: "0") &+ UInt8(v % 10)
                v /= 10
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: digits[i..<20]))
        }
    }

    public static func append(_ value: Double, to buffer: inout [UInt8]) {
        var value = value
        if !value.isFinite {
            value = value.isNaN ? 0 : (value < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude)
        }
        // Integral values below 2^53 are exact integers: the integer path is faster and drops
        // the ".0"; it also prints -0 as 0.
        if value.magnitude < 9_007_199_254_740_992, value == value.rounded(.towardZero) {
            append(Int64(value), to: &buffer)
            return
        }
        // Double's TextOutputStreamable conformance formats into a stack buffer and hands it
        // to `_writeASCII`, so this costs no String allocation (`description` would allocate
        // for anything longer than 15 bytes).
        var sink = ByteSink()
        swap(&sink.bytes, &buffer)
        value.write(to: &sink)
        swap(&sink.bytes, &buffer)
        // Integral values from 2^53 up to 10^16 come out as "9007199254740992.0".
        if buffer.count >= 2, buffer[buffer.count - 2] == UInt8(ascii: "."), buffer[buffer.count - 1] == UInt8(ascii: "0") {
            buffer.removeLast(2)
        }
    }
}

/// A text stream that appends to a byte array (moved in and out, so never copied).
struct ByteSink: TextOutputStream {
    var bytes: [UInt8] = []

    mutating func write(_ string: String) {
        bytes.append(contentsOf: string.utf8)
    }

    mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: buffer)
    }
}
