/// The iOS rubber band: `b(x) = x·d·c / (d + c·x)` maps how far the finger went past an edge to
/// how far the content follows, approaching `d` but never reaching it.
public struct RubberBand: Hashable, Sendable {
    /// `c`, the `rubber_band` constant (0.55).
    public var coefficient: Double
    /// `d`, the container's length along the axis.
    public var dimension: Double

    @inlinable
    public init(coefficient: Double, dimension: Double) {
        self.coefficient = coefficient
        self.dimension = dimension
    }

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
        return shown * d / (c * (d - shown))
    }
}
