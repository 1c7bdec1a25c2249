/// The value range a panel shows: the data's range (plus values that must stay in view, such
/// as 0 for a velocity), widened by a margin so that lines do not touch the frame.
public struct PlotDomain: Hashable, Sendable {
    public var lower: Double
    public var upper: Double

    public var span: Double { upper - lower }
}

extension PlotDomain {
    /// The range of the finite `values` and `including`, widened by `margin` of its span on
    /// each side. A constant series (span 0) gets ±max(10 % of its value, 1) instead, so it is
    /// drawn as a flat line in the middle rather than divided by zero; no finite value at all
    /// gives −1…1.
    public init(covering values: some Sequence<Double>, including: [Double] = [], margin: Double = 0.06) {
        var lo = Double.infinity
        var hi = -Double.infinity
        for value in values where value.isFinite {
            lo = min(lo, value)
            hi = max(hi, value)
        }
        for value in including where value.isFinite {
            lo = min(lo, value)
            hi = max(hi, value)
        }
        guard lo <= hi else {
            self.init(lower: -1, upper: 1)
            return
        }
        let span = hi - lo
        if span > 0 && span.isFinite {
            self.init(lower: lo - span * margin, upper: hi + span * margin)
        } else {
            let pad = max(abs(lo) * 0.1, 1)
            self.init(lower: lo - pad, upper: hi + pad)
        }
    }
}
