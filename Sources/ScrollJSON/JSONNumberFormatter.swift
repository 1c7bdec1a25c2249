/// Writes numbers as JSON text straight into a byte buffer (see `JSONByteWriter.number(_:)`
/// for how doubles are written: shortest round-trip text, integral values without ".0", -0 as
/// 0, NaN and infinities clamped).
public enum JSONNumberFormatter {
    public static func append(_ value: Int, to buffer: inout [UInt8]) {
        append(Int64(value), to: &buffer)
    }

    public static func append(_ value: Int64, to buffer: inout [UInt8]) {
        buffer.appendJSON(maxCount: JSONByteWriter.maxNumberLength) { $0.integer(value) }
    }

    public static func append(_ value: Double, to buffer: inout [UInt8]) {
        buffer.appendJSON(maxCount: JSONByteWriter.maxNumberLength) { $0.number(value) }
    }
}
