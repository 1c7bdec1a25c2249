/// Exponential momentum: `y(τ) = y0 + v0 (e^(kτ) − 1)/k`, `v(τ) = v0 e^(kτ)`, resting at
/// `y∞ = y0 − v0/k`.
///
/// iOS' `d^(1000τ)` with `k = 1000 ln d` and GTK's `(v0/f)(1 − e^(−fτ))` with `k = −f` are the
/// same curve; only how they end differs.
public struct Deceleration: Hashable, Sendable {
    /// `y0`, px: the position at release (τ = 0).
    public let start: Double
    /// `v0`, px/s: the release velocity; its sign is the direction of travel.
    public let initialVelocity: Double
    /// Negative: the exponent per second.
    public let k: Double

    /// A deceleration from `y0` px at `v0` px/s with exponent `k` per second (negative; 0 would
    /// divide by zero).
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

    /// `y∞ = y0 − v0/k`, px: where the motion would come to rest with no edge in the way.
    /// Release at 0 with 1000 px/s and rate 0.998 → 499.500.
    @inlinable
    public var restingPoint: Double { start - initialVelocity / k }

    /// `y(τ) = y0 + v0 (e^(kτ) − 1)/k`, px, `tau` seconds after release.
    @inlinable
    public func position(at tau: Double) -> Double {
        start + initialVelocity * (Math.exp(k * tau) - 1) / k
    }

    /// `v(τ) = v0 e^(kτ)`, px/s, `tau` seconds after release.
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
    /// The offset where the snap starts, px.
    public let start: Double
    /// The offset it ends at, px.
    public let target: Double
    /// Seconds; ``HeaderConfiguration/snapDuration(distance:)`` gives the header snap's.
    public let duration: Double

    /// A curve from `start` to `target` px over `duration` seconds.
    public init(from start: Double, to target: Double, duration: Double) {
        self.start = start
        self.target = target
        self.duration = duration
    }

    /// Position, px, `tau` seconds after the start: `start` before 0, `target` from `duration` on.
    @inlinable
    public func position(at tau: Double) -> Double {
        guard duration > 0, tau < duration else { return target }
        let s = max(0, tau) / duration
        return start + (target - start) * (1 - (1 - s) * (1 - s))
    }

    /// Velocity, px/s: `Δ · 2(1 − s) / duration`, highest at the start, 0 from `duration` on.
    @inlinable
    public func velocity(at tau: Double) -> Double {
        guard duration > 0, tau < duration else { return 0 }
        let s = max(0, tau) / duration
        return (target - start) * 2 * (1 - s) / duration
    }
}
