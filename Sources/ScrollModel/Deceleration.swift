/// Exponential momentum: `y(τ) = y0 + v0 (e^(kτ) − 1)/k`, `v(τ) = v0 e^(kτ)`, resting at
/// `y∞ = y0 − v0/k`.
///
/// iOS' `d^(1000τ)` with `k = 1000 ln d` and GTK's `(v0/f)(1 − e^(−fτ))` with `k = −f` are the
/// same curve; only how they end differs.
public struct Deceleration: Hashable, Sendable {
    public let start: Double
    public let initialVelocity: Double
    /// Negative: the exponent per second.
    public let k: Double

    public init(from y0: Double, velocity v0: Double, k: Double) {
        start = y0
        initialVelocity = v0
        self.k = k
    }

    /// iOS: `deceleration_rate` per millisecond.
    public static func ios(from y0: Double, velocity v0: Double, rate: Double) -> Deceleration {
        Deceleration(from: y0, velocity: v0, k: 1000 * Math.log(rate))
    }

    /// GTK: friction `f` per second.
    public static func gtk(from y0: Double, velocity v0: Double, friction: Double) -> Deceleration {
        Deceleration(from: y0, velocity: v0, k: -friction)
    }

    @inlinable
    public var restingPoint: Double { start - initialVelocity / k }

    @inlinable
    public func position(at tau: Double) -> Double {
        start + initialVelocity * (Math.exp(k * tau) - 1) / k
    }

    @inlinable
    public func velocity(at tau: Double) -> Double {
        initialVelocity * Math.exp(k * tau)
    }

    /// Position and velocity at τ from one exponential, bit for bit as the two functions above.
    @inlinable
    public func sample(at tau: Double) -> (position: Double, velocity: Double) {
        let e = Math.exp(k * tau)
        return (start + initialVelocity * (e - 1) / k, initialVelocity * e)
    }

    /// The time at which the motion reaches `edge`, if it ever does.
    public func crossingTime(of edge: Double) -> Double? {
        let ratio = 1 + k * (edge - start) / initialVelocity
        guard initialVelocity != 0, ratio > 0, ratio <= 1 else { return nil }
        return Math.log(ratio) / k
    }
}

/// The header snap's curve: `y0 + Δ (1 − (1 − s)²)`, `s = τ / duration`.
public struct EaseOutCurve: Hashable, Sendable {
    public let start: Double
    public let target: Double
    public let duration: Double

    public init(from start: Double, to target: Double, duration: Double) {
        self.start = start
        self.target = target
        self.duration = duration
    }

    @inlinable
    public func position(at tau: Double) -> Double {
        guard duration > 0, tau < duration else { return target }
        let s = max(0, tau) / duration
        return start + (target - start) * (1 - (1 - s) * (1 - s))
    }

    @inlinable
    public func velocity(at tau: Double) -> Double {
        guard duration > 0, tau < duration else { return 0 }
        let s = max(0, tau) / duration
        return (target - start) * 2 * (1 - s) / duration
    }
}
