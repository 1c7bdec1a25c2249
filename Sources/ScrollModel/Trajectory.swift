/// One axis' motion that runs by itself: a closed-form curve anchored at its start time.
///
/// Evaluating a trajectory at any time decides nothing; whether it has ended is asked only on frame
/// ticks (``finished(at:physics:)``), so sampling at arbitrary times never changes the outcome.
public struct Trajectory: Hashable, Sendable {
    /// Why the motion runs: it decides the phase the container shows.
    public enum Purpose: Hashable, Sendable {
        /// A smooth wheel step (phase `interacting`); never leaves the resting range.
        case wheel
        /// Deceleration, bounce, or a scroll-target snap after a release (`decelerating`).
        case momentum
        /// `scrollTo` / `scrollBy` or a header snap (`animating`).
        case animation
    }

    /// The closed form a trajectory follows, in τ seconds since ``Trajectory/start``.
    public enum Curve: Hashable, Sendable {
        /// A spring: the wheel, a bounce, a programmatic scroll, a scroll-target snap; ends when it
        /// has settled (``SpringCurve/hasSettled(at:physics:)``).
        case spring(SpringCurve)
        /// A fling: deceleration, possibly handing over to a bounce at an edge.
        case deceleration(DecelerationPath)
        /// The header snap's ease-out; ends at its duration.
        case ease(EaseOutCurve)
    }

    /// µs: the moment τ = 0 of ``curve`` (the event or frame that started the motion).
    public var start: Timestamp
    /// The path, in px and px/s along one axis.
    public var curve: Curve
    /// Why it runs: sets the phase (`interacting`, `decelerating`, `animating`).
    public var purpose: Purpose

    /// A motion along `curve` starting at `start` µs.
    public init(start: Timestamp, curve: Curve, purpose: Purpose) {
        self.start = start
        self.curve = curve
        self.purpose = purpose
    }

    /// Where a running wheel spring is heading, the base for the next wheel step.
    var wheelTarget: Double? {
        guard purpose == .wheel, case .spring(let spring) = curve else { return nil }
        return spring.target
    }

    func tau(_ time: Timestamp) -> Double { Double(time - start) / 1_000_000 }

    /// A trajectory evaluated at one instant.
    public struct Sample: Hashable, Sendable {
        /// The offset along the axis, px.
        public var position: Double
        /// Its rate of change, px/s.
        public var velocity: Double
        /// The trajectory's purpose, carried along so a wheel sample can be clamped to the resting
        /// range without reading the trajectory again.
        public var purpose: Purpose
    }

    /// Position and velocity at `time`.
    public func sample(at time: Timestamp) -> Sample {
        let tau = tau(time)
        switch curve {
        case .spring(let spring):
            let (y, v) = spring.sample(at: tau)
            return Sample(position: y, velocity: v, purpose: purpose)
        case .deceleration(let path):
            let (y, v) = path.sample(at: tau)
            return Sample(position: y, velocity: v, purpose: purpose)
        case .ease(let ease):
            return Sample(position: ease.position(at: tau), velocity: ease.velocity(at: tau), purpose: purpose)
        }
    }

    /// Position, px, at `time` µs (absolute, on the engine's clock).
    public func position(at time: Timestamp) -> Double {
        let tau = tau(time)
        switch curve {
        case .spring(let spring): return spring.position(at: tau)
        case .deceleration(let path): return path.position(at: tau)
        case .ease(let ease): return ease.position(at: tau)
        }
    }

    /// Velocity, px/s, at `time` µs.
    public func velocity(at time: Timestamp) -> Double {
        let tau = tau(time)
        switch curve {
        case .spring(let spring): return spring.velocity(at: tau)
        case .deceleration(let path): return path.velocity(at: tau)
        case .ease(let ease): return ease.velocity(at: tau)
        }
    }

    /// On a frame tick: the exact resting position when the motion ends at `time`, else nil.
    public func finished(at time: Timestamp, physics: ScrollPhysics) -> Double? {
        let tau = tau(time)
        switch curve {
        case .spring(let spring):
            return spring.hasSettled(at: tau, physics: physics) ? spring.target : nil
        case .deceleration(let path):
            return path.finished(at: tau, physics: physics)
        case .ease(let ease):
            return tau >= ease.duration ? ease.target : nil
        }
    }

    /// ``finished(at:physics:)`` from the sample ``sample(at:)`` gave for the same `time`: the
    /// same decision, bit for bit, without evaluating the curve a second time on every frame.
    func finished(at time: Timestamp, sampled sample: Sample, physics: ScrollPhysics) -> Double? {
        switch curve {
        case .spring(let spring):
            return spring.hasSettled(position: sample.position, velocity: sample.velocity, physics: physics) ? spring.target : nil
        case .deceleration(let path):
            return path.finished(at: tau(time), sampled: sample, physics: physics)
        case .ease(let ease):
            return tau(time) >= ease.duration ? ease.target : nil
        }
    }
}

extension SpringCurve {
    /// docs/design.md §5 "Settle": within `settleDistance` of the target and slower than
    /// `settleVelocity`.
    public func hasSettled(at tau: Double, physics: ScrollPhysics) -> Bool {
        hasSettled(position: position(at: tau), velocity: velocity(at: tau), physics: physics)
    }

    /// The same test on a position and velocity already evaluated at some τ.
    @inline(__always)
    func hasSettled(position: Double, velocity: Double, physics: ScrollPhysics) -> Bool {
        abs(position - target) < physics.settleDistance && abs(velocity) < physics.settleVelocity
    }
}
