extension ScrollContainer {
    subscript(motion axis: Axis) -> Trajectory? {
        get { axis == .horizontal ? motionX : motionY }
        set { if axis == .horizontal { motionX = newValue } else { motionY = newValue } }
    }

    /// Brings position and velocity to `time` along the running curves. Decides nothing.
    @usableFromInline
    mutating func advance(to time: Timestamp) {
        if time > self.time { self.time = time }
        if let animation = geometryAnimation { presentGeometry(animation, at: self.time) }
        if drag != nil {
            velocity = scaledVelocity()
            return
        }
        // Optional chaining reads a trajectory where it is stored; `motionX!` or
        // `self[motion:]` would copy its ~100 bytes, several times per event.
        if let sample = motionX?.sample(at: time) { (position.x, velocity.x) = shown(sample, .horizontal) }
        if let sample = motionY?.sample(at: time) { (position.y, velocity.y) = shown(sample, .vertical) }
        if geometryAnimation != nil { clampRestingAxes() }
    }

    /// ``advance(to:)``, returning the curves' samples at `time` (nil for an axis not sampled)
    /// for a frame tick to decide with. (A second body rather than one calling the other: the
    /// returned samples cost every input event ~20 instructions when ``advance(to:)`` is this
    /// function, measured with callgrind.)
    mutating func sampledAdvance(to time: Timestamp) -> (x: Trajectory.Sample?, y: Trajectory.Sample?) {
        if time > self.time { self.time = time }
        if let animation = geometryAnimation { presentGeometry(animation, at: self.time) }
        if drag != nil {
            velocity = scaledVelocity()
            return (nil, nil)
        }
        // Optional chaining reads a trajectory where it is stored; `motionX!` or
        // `self[motion:]` would copy its ~100 bytes, several times per event.
        let x = motionX?.sample(at: time), y = motionY?.sample(at: time)
        if let x { (position.x, velocity.x) = shown(x, .horizontal) }
        if let y { (position.y, velocity.y) = shown(y, .vertical) }
        if geometryAnimation != nil { clampRestingAxes() }
        return (x, y)
    }

    /// Wheels never overscroll, even when a retargeted spring would swing past an edge.
    @inline(__always)
    private func shown(_ sample: Trajectory.Sample, _ axis: Axis) -> (Double, Double) {
        guard sample.purpose == .wheel else { return (sample.position, sample.velocity) }
        let range = self.range(axis)
        if sample.position < range.lowerBound || sample.position > range.upperBound {
            return (Math.clamp(sample.position, range), 0)
        }
        return (sample.position, sample.velocity)
    }

    /// Moves the presented geometry along an animated change.
    mutating func presentGeometry(_ animation: GeometryAnimation, at time: Timestamp) {
        containerSize = Size(clamping: animation.value(0, at: time), animation.value(1, at: time))
        contentSize = Size(clamping: animation.value(2, at: time), animation.value(3, at: time))
        contentInsets = EdgeInsets(
            top: animation.value(4, at: time), leading: animation.value(5, at: time),
            bottom: animation.value(6, at: time), trailing: animation.value(7, at: time)
        )
    }

    /// While the geometry animates, an axis at rest follows its resting range as it changes: it
    /// is clamped to the range as presented and as configured together (an offset that scroll
    /// anchoring moved ahead of growing content is where the content will be, and stays), and a
    /// bottom-anchored container at its end stays at the presented end.
    mutating func clampRestingAxes() {
        guard drag == nil, holdDevice == nil else {
            pinnedToEnd = false
            return
        }
        for axis in Axis.allCases where self[motion: axis] == nil {
            guard scrolls(axis) else {
                position[axis] = range(axis).lowerBound
                continue
            }
            let presented = range(axis)
            if pinnedToEnd && axis == configuration.listAxis {
                if wheel == nil {
                    position[axis] = presented.upperBound
                    continue
                }
                pinnedToEnd = false
            }
            guard let target = geometryAnimation?.restingRange(axis) else {
                position[axis] = Math.clamp(position[axis], presented)
                continue
            }
            let union = min(presented.lowerBound, target.lowerBound)...max(presented.upperBound, target.upperBound)
            position[axis] = Math.clamp(position[axis], union)
        }
        if pinnedToEnd && self[motion: configuration.listAxis] != nil { pinnedToEnd = false }
    }

    @inline(__always)
    func scaledVelocity() -> Point {
        let v = tracker.velocity
        var scaled = Point(x: takesInput(.horizontal) ? v.x : 0, y: takesInput(.vertical) ? v.y : 0)
        if let locked = lockedAxis { scaled = DirectionalLock.along(locked, scaled) }
        return scaled
    }

    /// A frame tick: the only moment a running motion may end (docs/design.md §6).
    public mutating func tick(at time: Timestamp) {
        let samples = sampledAdvance(to: time)
        // Asked in place (optional chaining), not through copies of the trajectories, and from
        // the samples just taken rather than by evaluating the curves again.
        let physics = configuration.physics
        let endX = samples.x.map { motionX?.finished(at: time, sampled: $0, physics: physics) } ?? motionX?.finished(at: time, physics: physics)
        if let end = endX {
            position.x = end
            velocity.x = 0
            motionX = nil
        }
        let endY = samples.y.map { motionY?.finished(at: time, sampled: $0, physics: physics) } ?? motionY?.finished(at: time, physics: physics)
        if let end = endY {
            position.y = end
            velocity.y = 0
            motionY = nil
        }
        if geometryAnimation.isSome, let animation = geometryAnimation, animation.hasSettled(at: time, physics: configuration.physics) {
            geometryAnimation = nil
            containerSize = configuration.containerSize
            contentSize = Self.idealContentSize(configuration)
            contentInsets = configuration.contentInsets
            clampRestingAxes()
            pinnedToEnd = false
        }
        endWheelGestureIfDone()
        settleIfIdle(at: time)
        layout()
    }

    /// The one-shot wheel timer (`wheel_idle` after the last wheel event).
    public mutating func fireTimer(at time: Timestamp) {
        advance(to: time)
        if wheel != nil, time >= wheel!.deadline { wheel!.timerPending = false }
        indicatorVisibility.fire(at: time)
        endWheelGestureIfDone()
        settleIfIdle(at: time)
        layout()
    }

    /// A wheel gesture ends at the later of its motion settling and `wheel_idle` of silence.
    @usableFromInline
    mutating func endWheelGestureIfDone() {
        guard let gesture = wheel, !gesture.timerPending,
              motionX?.purpose != .wheel, motionY?.purpose != .wheel
        else { return }
        wheel = nil
        snapArmed = true
        aimAtScrollTarget(from: gesture.origin, endPoint: position, at: time)
    }

    /// Stops every running motion where it is now.
    @usableFromInline
    mutating func stopMotion() {
        motionX = nil
        motionY = nil
        velocity = .zero
    }

    /// When the container comes to rest after a gesture, a header caught half way snaps open or
    /// closed; after a programmatic scroll or a configuration change it stays where it is.
    @usableFromInline
    mutating func settleIfIdle(at time: Timestamp) {
        guard phase == .idle else { return }
        velocity = .zero
        guard snapArmed else { return }
        snapArmed = false
        let axis = configuration.listAxis
        guard let header = configuration.header, scrolls(axis) else { return }
        let range = self.range(axis)
        let y = position[axis]
        guard let snap = headerSnapTarget(header, at: y) else { return }
        let target = Math.clamp(snap, range)
        guard target != y else { return }
        if configuration.physics.reducedMotion {
            // Reduced motion: the header snaps without an animation.
            position[axis] = target
            layout()
            return
        }
        let curve = EaseOutCurve(from: y, to: target, duration: header.snapDuration(distance: target - y))
        self[motion: axis] = Trajectory(start: time, curve: .ease(curve), purpose: .animation)
    }

    /// Whether gestures along `axis` end on a scroll target rather than where momentum takes them.
    @inline(__always)
    func aimsAtScrollTarget(_ axis: Axis) -> Bool {
        guard scrolls(axis) else { return false }
        switch configuration.scrollTarget {
        case .none: return false
        case .paging: return true
        case .rows: return axis == configuration.listAxis && rowLayout != nil
        }
    }

    /// With a scroll-target behaviour, the motion after a gesture aims at its snap target
    /// (``snapTarget(_:origin:endPoint:fling:)``) along the `smooth` spring; `fling` is the
    /// release velocity of an axis that flung, else 0.
    @usableFromInline
    mutating func aimAtScrollTarget(from origin: Point, endPoint: Point, fling: Point = .zero, at time: Timestamp) {
        for axis in Axis.allCases where aimsAtScrollTarget(axis) && self[motion: axis] == nil {
            guard let target = snapTarget(axis, origin: origin[axis], endPoint: endPoint[axis], fling: fling[axis]) else { continue }
            guard target != position[axis] || velocity[axis] != 0 else { continue }
            let curve = SpringCurve(from: position[axis], velocity: velocity[axis], target: target, spring: .smooth)
            self[motion: axis] = Trajectory(start: time, curve: .spring(curve), purpose: .momentum)
        }
    }
}
