/// One axis' motion that runs by itself: a closed-form curve anchored at its start time.
///
/// Evaluating a trajectory at any time decides nothing; whether it has ended is asked only on
/// frame ticks (`finished(at:)`), so sampling at arbitrary times never changes the outcome.
public struct Trajectory: Hashable, Sendable {
    public enum Purpose: Hashable, Sendable {
        /// A smooth wheel step (phase `interacting`); never leaves the resting range.
        case wheel
        /// Deceleration, bounce, or a scroll-target snap after a release (`decelerating`).
        case momentum
        /// `scrollTo` / `scrollBy` or a header snap (`animating`).
        case animation
    }

    public enum Curve: Hashable, Sendable {
        case spring(SpringCurve)
        case deceleration(DecelerationPath)
        case ease(EaseOutCurve)
    }

    public var start: Timestamp
    public var curve: Curve
    public var purpose: Purpose

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

    public struct Sample: Hashable, Sendable {
        public var position: Double
        public var velocity: Double
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

    public func position(at time: Timestamp) -> Double {
        let tau = tau(time)
        switch curve {
        case .spring(let spring): return spring.position(at: tau)
        case .deceleration(let path): return path.position(at: tau)
        case .ease(let ease): return ease.position(at: tau)
        }
    }

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
}

extension SpringCurve {
    /// DESIGN §5 "Settle": within `settleDistance` of the target and slower than `settleVelocity`.
    public func hasSettled(at tau: Double, physics: ScrollPhysics) -> Bool {
        abs(position(at: tau) - target) < physics.settleDistance && abs(velocity(at: tau)) < physics.settleVelocity
    }
}

/// Momentum after a release: a deceleration that, if its end point lies beyond an edge, hands
/// over at the crossing time `τe` to a bounce from the edge with the crossing velocity (or stops
/// at the edge without overscroll).
public struct DecelerationPath: Hashable, Sendable {
    public enum Ending: Hashable, Sendable {
        /// iOS: within `decelerationEndDistance` of the end point.
        case distance
        /// GTK: slower than `stopVelocity`.
        case speed
    }

    // Stored in this order so that optionals pack tightly: a trajectory that fits in 128 bytes
    // is copied with a few vector moves rather than a call to memcpy, on every event.
    public let deceleration: Deceleration
    /// The spring after the crossing; nil stops at the edge.
    public let bounce: SpringCurve?
    /// Where and when the fling meets an edge of the resting range, if it does.
    let hit: EdgeCrossing?
    /// GTK limits how far a fling overshoots.
    public let overshootLimit: Double?
    public let ending: Ending

    struct EdgeCrossing: Hashable, Sendable {
        var edge: Double
        var time: Double
    }

    /// The edge the fling meets, if it does.
    public var edge: Double? { hit?.edge }
    /// When (τ, seconds) it meets that edge.
    public var crossing: Double? { hit?.time }

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

    public func position(at tau: Double) -> Double {
        guard let hit, tau >= hit.time else { return deceleration.position(at: tau) }
        let (edge, crossing) = (hit.edge, hit.time)
        guard let bounce else { return edge }
        let y = bounce.position(at: tau - crossing)
        guard let limit = overshootLimit else { return y }
        return Math.clamp(y, (edge - limit)...(edge + limit))
    }

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
}
