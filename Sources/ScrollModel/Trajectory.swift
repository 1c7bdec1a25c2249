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
    /// px added to every position of ``curve``: how far scroll anchoring has moved the motion
    /// since it started (DESIGN §12), kept apart so that a shifted fling ends exactly that far
    /// from where it would have ended, and 0 for every motion that was never shifted.
    public internal(set) var shift: Double = 0

    /// A motion along `curve` starting at `start` µs.
    public init(start: Timestamp, curve: Curve, purpose: Purpose) {
        self.start = start
        self.curve = curve
        self.purpose = purpose
    }

    /// Where a running wheel spring is heading, the base for the next wheel step.
    var wheelTarget: Double? {
        guard purpose == .wheel, case .spring(let spring) = curve else { return nil }
        return shifted(spring.target)
    }

    /// A position of the curve moved by ``shift`` (untouched when there is none, so that a motion
    /// never shifted gives its curve's own bits, a −0 included).
    @inline(__always)
    func shifted(_ position: Double) -> Double {
        shift == 0 ? position : position + shift
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
            return Sample(position: shifted(y), velocity: v, purpose: purpose)
        case .deceleration(let path):
            let (y, v) = path.sample(at: tau)
            return Sample(position: shifted(y), velocity: v, purpose: purpose)
        case .ease(let ease):
            return Sample(position: shifted(ease.position(at: tau)), velocity: ease.velocity(at: tau), purpose: purpose)
        }
    }

    /// Position, px, at `time` µs (absolute, on the engine's clock).
    public func position(at time: Timestamp) -> Double {
        let tau = tau(time)
        switch curve {
        case .spring(let spring): return shifted(spring.position(at: tau))
        case .deceleration(let path): return shifted(path.position(at: tau))
        case .ease(let ease): return shifted(ease.position(at: tau))
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
            return spring.hasSettled(at: tau, physics: physics) ? shifted(spring.target) : nil
        case .deceleration(let path):
            return path.finished(at: tau, physics: physics).map(shifted)
        case .ease(let ease):
            return tau >= ease.duration ? shifted(ease.target) : nil
        }
    }

    /// ``finished(at:physics:)`` from the sample ``sample(at:)`` gave for the same `time`: the
    /// same decision, bit for bit, without evaluating the curve a second time on every frame.
    func finished(at time: Timestamp, sampled sample: Sample, physics: ScrollPhysics) -> Double? {
        switch curve {
        case .spring(let spring):
            // A shifted motion decides from its own curve, exactly as it would have unshifted.
            guard shift == 0 else { return spring.hasSettled(at: tau(time), physics: physics) ? shifted(spring.target) : nil }
            return spring.hasSettled(position: sample.position, velocity: sample.velocity, physics: physics) ? spring.target : nil
        case .deceleration(let path):
            guard shift != 0 else { return path.finished(at: tau(time), sampled: sample, physics: physics) }
            return path.finished(at: tau(time), physics: physics).map(shifted)
        case .ease(let ease):
            return tau(time) >= ease.duration ? shifted(ease.target) : nil
        }
    }
}

extension SpringCurve {
    /// DESIGN §5 "Settle": within `settleDistance` of the target and slower than `settleVelocity`.
    public func hasSettled(at tau: Double, physics: ScrollPhysics) -> Bool {
        hasSettled(position: position(at: tau), velocity: velocity(at: tau), physics: physics)
    }

    /// The same test on a position and velocity already evaluated at some τ.
    @inline(__always)
    func hasSettled(position: Double, velocity: Double, physics: ScrollPhysics) -> Bool {
        abs(position - target) < physics.settleDistance && abs(velocity) < physics.settleVelocity
    }
}

/// Momentum after a release: a deceleration that, if its end point lies beyond an edge, hands
/// over at the crossing time `τe` to a bounce from the edge with the crossing velocity (or stops
/// at the edge without overscroll).
public struct DecelerationPath: Hashable, Sendable {
    /// How a fling that stays inside the resting range decides it has ended, on a frame tick.
    public enum Ending: Hashable, Sendable {
        /// iOS: within `decelerationEndDistance` of the end point.
        case distance
        /// GTK: slower than `stopVelocity`.
        case speed
    }

    // Stored in this order so that optionals pack tightly: a trajectory that fits in 128 bytes
    // is copied with a few vector moves rather than a call to memcpy, on every event.
    /// The curve from the release to the crossing (or to rest, when no edge is in the way).
    public let deceleration: Deceleration
    /// The spring after the crossing; nil stops at the edge.
    public let bounce: SpringCurve?
    /// Where and when the fling meets an edge of the resting range, if it does.
    let hit: EdgeCrossing?
    /// GTK limits how far a fling overshoots.
    public let overshootLimit: Double?
    /// `.distance` for `ios` (and `none`), `.speed` for `gtk`.
    public let ending: Ending

    struct EdgeCrossing: Hashable, Sendable {
        var edge: Double
        var time: Double
    }

    /// The edge the fling meets, if it does.
    public var edge: Double? { hit?.edge }
    /// When (τ, seconds) it meets that edge.
    public var crossing: Double? { hit?.time }

    /// A fling within `range` (the resting range `[lo, hi]`): when the resting point lies beyond
    /// an edge, it crosses it at `τe = ln(1 + k (edge − y0)/v0) / k` and continues as a
    /// `bounceStiffness` spring from the edge with velocity `v(τe)`, or stops there without
    /// overscroll.
    public init(_ deceleration: Deceleration, ending: Ending, range: ClosedRange<Double>, physics: ScrollPhysics) {
        self.deceleration = deceleration
        self.ending = ending
        overshootLimit = physics.flingOvershootLimit
        let end = deceleration.restingPoint
        let edge: Double? = end > range.upperBound ? range.upperBound : end < range.lowerBound ? range.lowerBound : nil
        if let edge, let crossing = deceleration.crossingTime(of: edge) {
            hit = EdgeCrossing(edge: edge, time: crossing)
            if physics.overscroll {
                bounce = SpringCurve(
                    from: edge,
                    velocity: deceleration.velocity(at: crossing),
                    target: edge,
                    spring: .criticallyDamped(stiffness: physics.bounceStiffness)
                )
            } else {
                bounce = nil
            }
        } else {
            hit = nil
            bounce = nil
        }
    }

    /// Position, px, `tau` seconds after release: the deceleration before the crossing, then the
    /// bounce (limited to `edge ± overshootLimit`), or the edge itself without a bounce.
    public func position(at tau: Double) -> Double {
        guard let hit, tau >= hit.time else { return deceleration.position(at: tau) }
        let (edge, crossing) = (hit.edge, hit.time)
        guard let bounce else { return edge }
        let y = bounce.position(at: tau - crossing)
        guard let limit = overshootLimit else { return y }
        return Math.clamp(y, (edge - limit)...(edge + limit))
    }

    /// Velocity, px/s, `tau` seconds after release: 0 after stopping at an edge.
    public func velocity(at tau: Double) -> Double {
        guard let hit, tau >= hit.time else { return deceleration.velocity(at: tau) }
        return bounce?.velocity(at: tau - hit.time) ?? 0
    }

    /// Position and velocity at τ, as `position(at:)` and `velocity(at:)`, bit for bit.
    public func sample(at tau: Double) -> (position: Double, velocity: Double) {
        guard let hit, tau >= hit.time else { return deceleration.sample(at: tau) }
        let edge = hit.edge
        guard let bounce else { return (edge, 0) }
        let (y, v) = bounce.sample(at: tau - hit.time)
        guard let limit = overshootLimit else { return (y, v) }
        return (Math.clamp(y, (edge - limit)...(edge + limit)), v)
    }

    /// On a frame tick: the exact resting position when the fling has ended `tau` seconds after
    /// release, else nil. Inside the range: within ``ScrollPhysics/decelerationEndDistance`` of
    /// `y∞` (`.distance`) or slower than ``ScrollPhysics/stopVelocity`` (`.speed`), ending at `y∞`;
    /// at an edge: when the bounce has settled, ending at the edge.
    public func finished(at tau: Double, physics: ScrollPhysics) -> Double? {
        if let hit {
            guard tau >= hit.time else { return nil }
            guard let bounce else { return hit.edge }
            return bounce.hasSettled(at: tau - hit.time, physics: physics) ? hit.edge : nil
        }
        let end = deceleration.restingPoint
        switch ending {
        case .distance:
            return abs(end - deceleration.position(at: tau)) < physics.decelerationEndDistance ? end : nil
        case .speed:
            return abs(deceleration.velocity(at: tau)) < physics.stopVelocity ? end : nil
        }
    }

    /// ``finished(at:physics:)`` from ``sample(at:)`` at the same τ. The sample is the curve's
    /// own position and velocity except when a bounce is held to `overshootLimit`: the settle
    /// test then reads the spring itself, as the other form does.
    func finished(at tau: Double, sampled sample: Trajectory.Sample, physics: ScrollPhysics) -> Double? {
        if let hit {
            guard tau >= hit.time else { return nil }
            guard let bounce else { return hit.edge }
            if overshootLimit != nil { return bounce.hasSettled(at: tau - hit.time, physics: physics) ? hit.edge : nil }
            return bounce.hasSettled(position: sample.position, velocity: sample.velocity, physics: physics) ? hit.edge : nil
        }
        let end = deceleration.restingPoint
        switch ending {
        case .distance:
            return abs(end - sample.position) < physics.decelerationEndDistance ? end : nil
        case .speed:
            return abs(sample.velocity) < physics.stopVelocity ? end : nil
        }
    }
}
