import RealModule

/// Round tick values for an axis: multiples of 1, 2 or 5 × 10ⁿ inside a domain, about `count`
/// of them (the step rule of d3-array's `tickIncrement`), with labels that print exactly.
///
/// Tick values are kept as integers (`index × mantissa`) scaled by a power of ten, so labels
/// never show binary noise such as `0.30000000000000004`.
public struct NiceTicks: Hashable, Sendable {
    /// 1, 2 or 5.
    public let mantissa: Int
    /// The step is `mantissa × 10^exponent`.
    public let exponent: Int
    /// The first and last tick as multiples of the step.
    public let firstIndex: Int
    public let lastIndex: Int

    public var step: Double { Self.scaled(mantissa, exponent) }

    /// Ticks inside `lower...upper` (either order); none for an empty or non-finite domain
    /// (callers widen a constant series first, see `PlotDomain`).
    public init(lower: Double, upper: Double, count: Int) {
        let lo = min(lower, upper)
        let hi = max(lower, upper)
        let raw = (hi - lo) / Double(max(1, count))
        guard raw > 0, raw.isFinite else {
            (mantissa, exponent, firstIndex, lastIndex) = (1, 0, 1, 0)
            return
        }
        var exponent = Self.decade(raw)
        let fraction = raw / Self.scaled(1, exponent)
        let mantissa: Int
        // Thresholds at the geometric means of the candidates: √50, √10, √2.
        if fraction >= 50.0.squareRoot() {
            mantissa = 1
            exponent += 1
        } else if fraction >= 10.0.squareRoot() {
            mantissa = 5
        } else if fraction >= 2.0.squareRoot() {
            mantissa = 2
        } else {
            mantissa = 1
        }
        self.mantissa = mantissa
        self.exponent = exponent
        let step = Self.scaled(mantissa, exponent)
        // Far from zero relative to the step (1e12 + 0…1) the indexes would not fit an Int.
        guard max(abs(lo), abs(hi)) / step < 1e15 else {
            (firstIndex, lastIndex) = (1, 0)
            return
        }
        // A tolerance keeps 0.3 / 0.1 = 2.9999999999999996 from losing the tick at 0.3.
        firstIndex = Int((lo / step - 1e-9).rounded(.up))
        lastIndex = Int((hi / step + 1e-9).rounded(.down))
    }

    /// Ticks as above, asking for more until at least `minimum` fall inside the domain: the
    /// step rule can land on a step as large as 1.4 × the requested one, which leaves a short
    /// panel with two labels (0 and 1000 on −800…1900) when the range is just past a boundary.
    public init(lower: Double, upper: Double, count: Int, minimum: Int) {
        var ticks = NiceTicks(lower: lower, upper: upper, count: count)
        var request = count
        while ticks.values.count < minimum && request < max(count, 1) * 4 {
            request += 1
            ticks = NiceTicks(lower: lower, upper: upper, count: request)
        }
        self = ticks
    }

    /// The tick values, in ascending order.
    public var values: [Double] {
        guard firstIndex <= lastIndex else { return [] }
        return (firstIndex...lastIndex).map { Self.scaled($0 * mantissa, exponent) }
    }

    /// The labels, one per value, all with the same number of decimals; negative numbers use a
    /// real minus sign (U+2212).
    public var labels: [String] {
        guard firstIndex <= lastIndex else { return [] }
        return (firstIndex...lastIndex).map { Self.label(units: $0 * mantissa, exponent: exponent) }
    }

    /// `units × 10^exponent` printed exactly.
    static func label(units: Int, exponent: Int) -> String {
        let sign = units < 0 ? "\u{2212}" : ""
        var digits = String(units.magnitude)
        if exponent >= 0 {
            if units != 0 { digits += String(repeating: "0", count: exponent) }
            return sign + digits
        }
        let decimals = -exponent
        if digits.count <= decimals {
            digits = String(repeating: "0", count: decimals - digits.count + 1) + digits
        }
        let split = digits.index(digits.endIndex, offsetBy: -decimals)
        return sign + digits[..<split] + "." + digits[split...]
    }

    /// `value × 10^exponent`, dividing for negative exponents so that decimal values come out
    /// as the nearest double (0.3, not 3 × 0.1).
    static func scaled(_ value: Int, _ exponent: Int) -> Double {
        var power = 1.0
        for _ in 0..<abs(exponent) { power *= 10 }
        return exponent >= 0 ? Double(value) * power : Double(value) / power
    }

    /// ⌊log₁₀ x⌋ for x > 0. Being one off at an exact power of ten is harmless: the mantissa
    /// thresholds then see a fraction of 10 (or just under 1) and pick the same step.
    static func decade(_ x: Double) -> Int {
        Int(Double.log10(x).rounded(.down))
    }
}
