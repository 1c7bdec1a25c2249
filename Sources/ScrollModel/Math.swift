import RealModule

/// The few elementary functions the model needs, in one place, from swift-numerics.
@usableFromInline
enum Math {
    @inlinable static func exp(_ x: Double) -> Double { Double.exp(x) }
    @inlinable static func log(_ x: Double) -> Double { Double.log(x) }
    @inlinable static func pow(_ x: Double, _ y: Double) -> Double { Double.pow(x, y) }
    @inlinable static func sqrt(_ x: Double) -> Double { x.squareRoot() }
    @inlinable static func cos(_ x: Double) -> Double { Double.cos(x) }
    @inlinable static func sin(_ x: Double) -> Double { Double.sin(x) }
    @inlinable static func clamp(_ x: Double, _ range: ClosedRange<Double>) -> Double {
        min(max(x, range.lowerBound), range.upperBound)
    }
}
