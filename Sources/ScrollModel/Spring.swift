/// A SwiftUI spring, `Spring(duration:bounce:)`: mass 1, `stiffness = (2π/T)²`, damping ratio
/// `ζ = 1 − b` (b ≥ 0) or `1/(1 + b)` (b < 0), `damping = 4πζ/T`.
///
/// Two springs are equal when they move alike (the same stiffness and damping), whatever they
/// were made from.
public struct Spring: Hashable, Sendable {
    /// `k`, per unit mass (1/s²): `(2π/T)²` for a spring of duration `T`.
    public private(set) var stiffness: Double
    /// `c`, per unit mass (1/s): `4πζ/T` for a spring of duration `T`; `2√k` is critical.
    public private(set) var damping: Double
    /// The duration and bounce the spring was made from, as given (`Spring(duration:bounce:)`);
    /// nil for one made from stiffness and damping. Inverting the formulas would give back
    /// values a few ulps off (0.35 as 0.35000000000000003): a request or recording carries these.
    public private(set) var parameters: Parameters?

    /// SwiftUI's two numbers for a spring.
    public struct Parameters: Hashable, Sendable {
        /// The perceptual duration `T`, seconds.
        public var duration: Double
        /// From −1 (exclusive, overdamped) through 0 (critical) to 1 (bouncy).
        public var bounce: Double

        /// The parameters `Spring(duration:bounce:)` takes.
        public init(duration: Double, bounce: Double) {
            self.duration = duration
            self.bounce = bounce
        }
    }

    /// Creates a spring on a mass of 1 from its stiffness (1/s²) and damping (1/s).
    public init(stiffness: Double, damping: Double) {
        self.stiffness = stiffness
        self.damping = damping
    }

    /// Whether the two move alike: the same stiffness and damping.
    public static func == (a: Spring, b: Spring) -> Bool {
        a.stiffness == b.stiffness && a.damping == b.damping
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(stiffness)
        hasher.combine(damping)
    }

    /// SwiftUI's `Spring(duration:bounce:)`: `duration` is the perceptual duration `T` in seconds
    /// (> 0); `bounce` 0 is critically damped, up to 1 more bouncy (underdamped), below 0 (down
    /// to but not including −1) overdamped.
    public init(duration: Double, bounce: Double = 0) {
        let zeta = bounce >= 0 ? 1 - bounce : 1 / (1 + bounce)
        stiffness = (2 * Double.pi / duration) * (2 * Double.pi / duration)
        damping = 4 * Double.pi * zeta / duration
        parameters = Parameters(duration: duration, bounce: bounce)
    }

    /// A critically damped spring of the given stiffness (the bounce, the wheel).
    public static func criticallyDamped(stiffness: Double) -> Spring {
        Spring(stiffness: stiffness, damping: 2 * stiffness.squareRoot())
    }

    /// `Spring(duration: 0.5, bounce: 0)`: critically damped, k ≈ 157.91, c ≈ 25.13; the
    /// protocol's `"smooth"` and the scroll-target snap. From 0 to 100 it is at 35.774 after
    /// 0.1 s and 98.640 after 0.5 s.
    public static let smooth = Spring(duration: 0.5, bounce: 0)
    /// `Spring(duration: 0.5, bounce: 0.15)`: slightly underdamped (ζ = 0.85); `"snappy"`.
    public static let snappy = Spring(duration: 0.5, bounce: 0.15)
    /// `Spring(duration: 0.5, bounce: 0.3)`: underdamped (ζ = 0.7), overshoots visibly; `"bouncy"`.
    public static let bouncy = Spring(duration: 0.5, bounce: 0.3)

    /// Undamped angular frequency `ω0 = √k`.
    public var angularFrequency: Double { stiffness.squareRoot() }
    /// `ζ = c / (2 ω0)`.
    public var dampingRatio: Double { damping / (2 * angularFrequency) }
}

/// The closed-form motion of a mass on `spring` toward `target`, from displacement
/// `y0 − target` and velocity `v0` at τ = 0, in each damping regime.
public struct SpringCurve: Hashable, Sendable {
    /// Where the motion comes to rest, px (the curve's position as τ → ∞).
    public internal(set) var target: Double
    @usableFromInline let regime: Regime

    @usableFromInline
    enum Regime: Hashable, Sendable {
        /// `x = e^(−ωτ)(c1 + c2 τ)`, `c1 = x0`, `c2 = v0 + ω c1`.
        case critical(omega: Double, c1: Double, c2: Double)
        /// `x = e^(−ζω0 τ)(c1 cos ωd τ + c2 sin ωd τ)`.
        case under(decay: Double, omegaD: Double, c1: Double, c2: Double)
        /// `x = A e^(r1 τ) + B e^(r2 τ)`.
        case over(r1: Double, r2: Double, a: Double, b: Double)
    }

    /// Starts at `y0` px with velocity `v0` px/s at τ = 0, heading for `target` px. The regime
    /// is critical when `|ζ − 1| < 1e-9`, else under- or overdamped.
    public init(from y0: Double, velocity v0: Double, target: Double, spring: Spring) {
        let omega0 = spring.angularFrequency
        let zeta = spring.dampingRatio
        let constants: Regime
        if abs(zeta - 1) < 1e-9 {
            constants = .critical(omega: omega0, c1: 0, c2: 0)
        } else if zeta < 1 {
            let decay = zeta * omega0
            constants = .under(decay: decay, omegaD: omega0 * (1 - zeta * zeta).squareRoot(), c1: 0, c2: 0)
        } else {
            let root = (zeta * zeta - 1).squareRoot()
            constants = .over(r1: -omega0 * (zeta - root), r2: -omega0 * (zeta + root), a: 0, b: 0)
        }
        self.init(from: y0, velocity: v0, target: target, regime: constants)
    }

    /// The same spring (its regime's constants, bit for bit) from new initial conditions: how a
    /// running spring whose target left the resting range heads for the clamped one instead.
    public func retargeted(from y0: Double, velocity v0: Double, to target: Double) -> SpringCurve {
        SpringCurve(from: y0, velocity: v0, target: target, regime: regime)
    }

    /// The same motion moved by `delta` px: its target and every position, the displacement
    /// from the target unchanged (scroll anchoring).
    func shifted(by delta: Double) -> SpringCurve {
        var moved = self
        moved.target += delta
        return moved
    }

    /// The motion from `y0`, `v0` toward `target` with the constants of `regime` (its
    /// coefficients are replaced).
    init(from y0: Double, velocity v0: Double, target: Double, regime constants: Regime) {
        self.target = target
        let x0 = y0 - target
        switch constants {
        case let .critical(omega, _, _):
            regime = .critical(omega: omega, c1: x0, c2: v0 + omega * x0)
        case let .under(decay, omegaD, _, _):
            regime = .under(decay: decay, omegaD: omegaD, c1: x0, c2: (v0 + decay * x0) / omegaD)
        case let .over(r1, r2, _, _):
            let a = (v0 - r2 * x0) / (r1 - r2)
            regime = .over(r1: r1, r2: r2, a: a, b: x0 - a)
        }
    }

    /// Position, px, `tau` seconds after the start.
    @inlinable
    public func position(at tau: Double) -> Double {
        switch regime {
        case let .critical(omega, c1, c2):
            return target + Math.exp(-omega * tau) * (c1 + c2 * tau)
        case let .under(decay, omegaD, c1, c2):
            return target + Math.exp(-decay * tau) * (c1 * Math.cos(omegaD * tau) + c2 * Math.sin(omegaD * tau))
        case let .over(r1, r2, a, b):
            return target + a * Math.exp(r1 * tau) + b * Math.exp(r2 * tau)
        }
    }

    /// Velocity, px/s, `tau` seconds after the start: the derivative of ``position(at:)``.
    @inlinable
    public func velocity(at tau: Double) -> Double {
        switch regime {
        case let .critical(omega, c1, c2):
            return Math.exp(-omega * tau) * (c2 - omega * (c1 + c2 * tau))
        case let .under(decay, omegaD, c1, c2):
            let c = Math.cos(omegaD * tau), s = Math.sin(omegaD * tau)
            return Math.exp(-decay * tau) * ((c2 * omegaD - decay * c1) * c - (c1 * omegaD + decay * c2) * s)
        case let .over(r1, r2, a, b):
            return a * r1 * Math.exp(r1 * tau) + b * r2 * Math.exp(r2 * tau)
        }
    }

    /// Position and velocity at τ, sharing their exponentials (this runs on every event and
    /// frame of a wheel or bounce); each is computed exactly as `position(at:)` and
    /// `velocity(at:)` compute it, so the results are the same bits.
    @inlinable
    public func sample(at tau: Double) -> (position: Double, velocity: Double) {
        switch regime {
        case let .critical(omega, c1, c2):
            let e = Math.exp(-omega * tau)
            return (target + e * (c1 + c2 * tau), e * (c2 - omega * (c1 + c2 * tau)))
        case let .under(decay, omegaD, c1, c2):
            let e = Math.exp(-decay * tau)
            let c = Math.cos(omegaD * tau), s = Math.sin(omegaD * tau)
            return (
                target + e * (c1 * c + c2 * s),
                e * ((c2 * omegaD - decay * c1) * c - (c1 * omegaD + decay * c2) * s)
            )
        case let .over(r1, r2, a, b):
            let e1 = Math.exp(r1 * tau), e2 = Math.exp(r2 * tau)
            return (target + a * e1 + b * e2, a * r1 * e1 + b * r2 * e2)
        }
    }
}
