/// Decimal text to the nearest double the fast way, shared by every number reader of scrolld
/// (JSON, libinput transcripts): at most 15 significant digits are exact in a double, and so is
/// every power of ten up to 10²², so one multiplication or division — a single correctly
/// rounded operation — gives exactly what `Double("…")` would (Clinger's fast path).
package enum ExactDecimal {
    /// `mantissa × 10^exponent` when the fast path applies (`digits` ≤ 15, |exponent| ≤ 22);
    /// nil when the text must be parsed the slow way.
    @inline(__always)
    package static func double(mantissa: UInt64, digits: Int, exponent: Int) -> Double? {
        guard digits <= 15, exponent >= -22, exponent <= 22 else { return nil }
        let value = Double(mantissa)
        return exponent < 0 ? value / powersOfTen[-exponent] : value * powersOfTen[exponent]
    }

    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11,
        1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
    ]
}
