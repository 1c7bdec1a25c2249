/// How a running motion carries on when the geometry changes under it (docs/design.md §19 "Geometry
/// changes never break motion") or scroll anchoring moves it (§12).
extension Trajectory {
    /// What becomes of a motion whose resting range changed.
    enum Replanned {
        /// It runs on as it was.
        case unchanged
        /// It runs on along this trajectory from the same position and velocity.
        case motion(Trajectory)
        /// It stops here at once (an edge, without overscroll; an ease out of time).
        case stop(at: Double)
    }

    /// Moves the whole motion by `delta` px: every position it will take, its target and its
    /// end point. A spring or ease moves its target (so it ends exactly `delta` further); a fling
    /// keeps its curve to the last bit and adds `delta` to it (``DecelerationPath/shift``).
    mutating func shift(by delta: Double) {
        switch curve {
        case .spring(let spring):
            curve = .spring(spring.shifted(by: delta))
        case .ease(let ease):
            curve = .ease(EaseOutCurve(from: ease.start + delta, to: ease.target + delta, duration: ease.duration))
        case .deceleration(var path):
            path.shift += delta
            curve = .deceleration(path)
        }
    }

    /// The motion against the resting range `range` from `time` on (the range it was planned
    /// against changed):
    /// - a spring (wheel, programmatic, bounce, scroll target) and the header snap keep their
    ///   target, clamped to `range`: a target left outside is replaced by the clamped one, from
    ///   the current position and velocity with the same spring;
    /// - a deceleration keeps its curve and meets the edges of `range` instead of the old ones:
    ///   its end point inside, it runs there unbroken; beyond, it hands over to the bounce at
    ///   the new edge's crossing time (docs/design.md §5). Already beyond the new edge at `time` (the content
    ///   shrank below it), it bounces back from where it is with the velocity it has, or stops
    ///   at the edge without overscroll. A fling already bouncing is a spring.
    func replanned(for range: ClosedRange<Double>, at time: Timestamp, physics: ScrollPhysics) -> Replanned {
        let tau = tau(time)
        switch curve {
        case .spring(let spring):
            return retargeted(spring, to: spring.target, within: range, at: time)
        case .ease(let ease):
            let target = ease.target
            let clamped = Math.clamp(target, range)
            guard clamped != target else { return .unchanged }
            let remaining = ease.duration - tau
            guard remaining > 0 else { return .stop(at: clamped) }
            let curve = EaseOutCurve(from: position(at: time), to: clamped, duration: remaining)
            return .motion(Trajectory(start: time, curve: .ease(curve), purpose: purpose))
        case .deceleration(let path):
            if let edge = path.edge, path.hasCrossed(at: tau) {
                guard let bounce = path.bounce else {
                    let clamped = Math.clamp(edge, range)
                    return clamped == edge ? .unchanged : .stop(at: clamped)
                }
                // Its bounce heads for the edge (shifted as the path is): a spring like any other.
                return retargeted(bounce, to: edge, within: range, at: time)
            }
            let now = sample(at: time)
            guard range.contains(now.position) else {
                let edge = Math.clamp(now.position, range)
                guard physics.overscroll else { return .stop(at: edge) }
                let bounce = SpringCurve(
                    from: now.position, velocity: now.velocity, target: edge,
                    spring: .criticallyDamped(stiffness: physics.bounceStiffness)
                )
                return .motion(Trajectory(start: time, curve: .spring(bounce), purpose: purpose))
            }
            // Planned in the curve's own coordinates, where the shift is not yet added.
            let own = (range.lowerBound - path.shift)...(range.upperBound - path.shift)
            var replanned = DecelerationPath(path.deceleration, ending: path.ending, range: own, physics: physics)
            replanned.shift = path.shift
            var motion = self
            motion.curve = .deceleration(replanned)
            return .motion(motion)
        }
    }

    /// A spring heading for `target` (already shifted) carries on, or heads for the clamped
    /// target from where it is now.
    private func retargeted(_ spring: SpringCurve, to target: Double, within range: ClosedRange<Double>, at time: Timestamp) -> Replanned {
        let clamped = Math.clamp(target, range)
        guard clamped != target else { return .unchanged }
        let now = sample(at: time)
        let curve = spring.retargeted(from: now.position, velocity: now.velocity, to: clamped)
        return .motion(Trajectory(start: time, curve: .spring(curve), purpose: purpose))
    }

    /// Where the motion will come to rest as planned now: a spring's or ease's target, the edge
    /// a fling meets, or its own end point.
    var restingPoint: Double {
        switch curve {
        case .spring(let spring): return spring.target
        case .ease(let ease): return ease.target
        case .deceleration(let path): return path.edge ?? path.shifted(path.deceleration.restingPoint)
        }
    }

    /// The motion of a container following its end (docs/design.md §20), after the resting
    /// range became `range`: it comes to rest at `range`'s upper bound from where it is now,
    /// with the velocity it has, so nothing jumps. A spring (a bounce, a wheel step, a
    /// programmatic scroll) keeps its spring and takes the new target; a fling not yet at its
    /// edge runs on against the new range when it still meets the new end, else it hands over
    /// to the bounce spring towards it; an ease keeps its remaining time. A motion already
    /// holding still at its old end (an edge without overscroll, an ease at its duration) moves
    /// with the end, as a resting offset does.
    func heading(toEnd range: ClosedRange<Double>, at time: Timestamp, physics: ScrollPhysics) -> Trajectory {
        let end = range.upperBound
        let tau = tau(time)
        switch curve {
        case .spring(let spring):
            guard spring.target != end else { return self }
            let now = sample(at: time)
            let curve = spring.retargeted(from: now.position, velocity: now.velocity, to: end)
            return Trajectory(start: time, curve: .spring(curve), purpose: purpose)
        case .ease(let ease):
            guard ease.target != end else { return self }
            let remaining = ease.duration - tau
            guard remaining > 0 else {
                var moved = self
                moved.shift(by: end - ease.target)
                return moved
            }
            let curve = EaseOutCurve(from: position(at: time), to: end, duration: remaining)
            return Trajectory(start: time, curve: .ease(curve), purpose: purpose)
        case .deceleration(let path):
            let now = sample(at: time)
            if let edge = path.edge, path.hasCrossed(at: tau) {
                guard let bounce = path.bounce else {
                    var moved = self
                    moved.shift(by: end - edge)
                    return moved
                }
                guard edge != end else { return self }
                let curve = bounce.retargeted(from: now.position, velocity: now.velocity, to: end)
                return Trajectory(start: time, curve: .spring(curve), purpose: purpose)
            }
            if case .motion(let replanned) = replanned(for: range, at: time, physics: physics), replanned.restingPoint == end {
                return replanned
            }
            let bounce = SpringCurve(
                from: now.position, velocity: now.velocity, target: end,
                spring: .criticallyDamped(stiffness: physics.bounceStiffness)
            )
            return Trajectory(start: time, curve: .spring(bounce), purpose: purpose)
        }
    }
}
