/// The iOS rubber band: `b(x) = x·d·c / (d + c·x)` maps how far the finger went past an edge to
/// how far the content follows, approaching `d` but never reaching it.
public struct RubberBand: Hashable, Sendable {
    /// `c`, the `rubber_band` constant (0.55).
    public var coefficient: Double
    /// `d`, the container's length along the axis.
    public var dimension: Double

    /// A rubber band with constant `c` (0.55 by default) over a container `d` px long.
    @inlinable
    public init(coefficient: Double, dimension: Double) {
        self.coefficient = coefficient
        self.dimension = dimension
    }

    /// `b(x)`, px shown for a finger `x` px past the edge (x ≥ 0); 0 when `c` or `d` is not
    /// positive. At the top of a 600 px container a −100 px drag shows `b(100) = 50.382`.
    @inlinable
    public func band(_ x: Double) -> Double {
        let d = dimension, c = coefficient
        guard d > 0, c > 0 else { return 0 }
        return x * d * c / (d + c * x)
    }

    /// `b⁻¹(s) = s·d / (c·(d − s))`, for resuming a drag that starts overscrolled.
    @inlinable
    public func inverse(_ s: Double) -> Double {
        let d = dimension, c = coefficient
        guard d > 0, c > 0 else { return 0 }
        // b never reaches d; an offset at or past it (a geometry that shrank) maps to a finite
        // raw distance instead of infinity.
        let shown = min(s, d * (1 - 1e-9))
        // At most ``Limits/magnitude``: a coefficient of a few ulps (accepted: `rubber_band`
        // only has to be ≥ 0) would divide by a denormal to infinity.
        return min(shown * d / (c * (d - shown)), Limits.magnitude)
    }
}
