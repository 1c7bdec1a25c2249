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

    // Stored without optionals (NaN and +∞ stand for "none") and in this order, so that a
    // trajectory stays well under 128 bytes and is copied with a few vector moves rather than a
    // call to memcpy, on every event.
    /// The curve from the release to the crossing (or to rest, when no edge is in the way).
    public let deceleration: Deceleration
    /// `τe`, s, when the fling meets ``hitEdge``; NaN when it meets no edge.
    let hitTime: Double
    /// The edge it meets, in the curve's own coordinates (without ``shift``).
    let hitEdge: Double
    /// How far the bounce may pass the edge, px; +∞: unlimited.
    let limit: Double
    /// px added to every position of the path: how far scroll anchoring has moved it
    /// (docs/design.md §12). Kept apart from the curve, so a shifted fling ends exactly that
    /// far from where it would have ended, and a path never shifted gives its curve's own bits.
    public internal(set) var shift: Double = 0
    /// The spring after the crossing; nil stops at the edge.
    public let bounce: SpringCurve?
    /// `.distance` for `ios` (and `none`), `.speed` for `gtk`.
    public let ending: Ending

    /// The edge the fling meets, if it does (shifted as the path is).
    public var edge: Double? { hitTime.isNaN ? nil : shifted(hitEdge) }
    /// When (τ, seconds) it meets that edge.
    public var crossing: Double? { hitTime.isNaN ? nil : hitTime }
    /// GTK limits how far a fling overshoots, px; nil: unlimited.
    public var overshootLimit: Double? { limit.isFinite ? limit : nil }

    /// A fling within `range` (the resting range `[lo, hi]`): when the resting point lies beyond
    /// an edge, it crosses it at `τe = ln(1 + k (edge − y0)/v0) / k` and continues as a
    /// `bounceStiffness` spring from the edge with velocity `v(τe)`, or stops there without
    /// overscroll.
    public init(_ deceleration: Deceleration, ending: Ending, range: ClosedRange<Double>, physics: ScrollPhysics) {
        self.deceleration = deceleration
        self.ending = ending
        limit = physics.flingOvershootLimit ?? .infinity
        let end = deceleration.restingPoint
        let edge: Double? = end > range.upperBound ? range.upperBound : end < range.lowerBound ? range.lowerBound : nil
        if let edge, let crossing = deceleration.crossingTime(of: edge) {
            hitTime = crossing
            hitEdge = edge
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
            hitTime = .nan
            hitEdge = 0
            bounce = nil
        }
    }

    /// A position of the curve moved by ``shift`` (untouched when there is none, a −0 included).
    @inline(__always)
    func shifted(_ position: Double) -> Double {
        shift == 0 ? position : position + shift
    }

    /// Whether the fling has met its edge by `tau` (false when it meets none: NaN compares false).
    @inline(__always)
    func hasCrossed(at tau: Double) -> Bool { tau >= hitTime }

    /// Position, px, `tau` seconds after release: the deceleration before the crossing, then the
    /// bounce (limited to `edge ± overshootLimit`), or the edge itself without a bounce.
    public func position(at tau: Double) -> Double {
        shifted(ownSample(at: tau).position)
    }

    /// Velocity, px/s, `tau` seconds after release: 0 after stopping at an edge.
    public func velocity(at tau: Double) -> Double {
        guard hasCrossed(at: tau) else { return deceleration.velocity(at: tau) }
        return bounce?.velocity(at: tau - hitTime) ?? 0
    }

    /// Position and velocity at τ, as `position(at:)` and `velocity(at:)`, bit for bit.
    public func sample(at tau: Double) -> (position: Double, velocity: Double) {
        let (y, v) = ownSample(at: tau)
        return (shifted(y), v)
    }

    /// The sample in the curve's own coordinates.
    @inline(__always)
    func ownSample(at tau: Double) -> (position: Double, velocity: Double) {
        guard hasCrossed(at: tau) else { return deceleration.sample(at: tau) }
        guard let bounce else { return (hitEdge, 0) }
        let (y, v) = bounce.sample(at: tau - hitTime)
        guard limit.isFinite else { return (y, v) }
        return (Math.clamp(y, (hitEdge - limit)...(hitEdge + limit)), v)
    }

    /// On a frame tick: the exact resting position when the fling has ended `tau` seconds after
    /// release, else nil. Inside the range: within ``ScrollPhysics/decelerationEndDistance`` of
    /// `y∞` (`.distance`) or slower than ``ScrollPhysics/stopVelocity`` (`.speed`), ending at `y∞`;
    /// at an edge: when the bounce has settled, ending at the edge. A shifted path decides from
    /// its own curve, exactly as it would have unshifted, and ends ``shift`` further.
    public func finished(at tau: Double, physics: ScrollPhysics) -> Double? {
        ownFinish(at: tau, physics: physics).map(shifted)
    }

    func ownFinish(at tau: Double, physics: ScrollPhysics) -> Double? {
        if !hitTime.isNaN {
            guard hasCrossed(at: tau) else { return nil }
            guard let bounce else { return hitEdge }
            return bounce.hasSettled(at: tau - hitTime, physics: physics) ? hitEdge : nil
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
    /// own position and velocity except when a bounce is held to `overshootLimit` or the path is
    /// shifted: the test then reads the curve itself, as the other form does.
    func finished(at tau: Double, sampled sample: Trajectory.Sample, physics: ScrollPhysics) -> Double? {
        guard shift == 0 else { return finished(at: tau, physics: physics) }
        if !hitTime.isNaN {
            guard hasCrossed(at: tau) else { return nil }
            guard let bounce else { return hitEdge }
            if limit.isFinite { return bounce.hasSettled(at: tau - hitTime, physics: physics) ? hitEdge : nil }
            return bounce.hasSettled(position: sample.position, velocity: sample.velocity, physics: physics) ? hitEdge : nil
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
