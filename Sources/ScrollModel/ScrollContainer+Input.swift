extension ScrollContainer {
    /// Applies one input event at its own time, as its device's `shaping` says (docs/design.md §18:
    /// the event's values are already shaped; `momentum` and `detent` act here). Returns whether it
    /// concerned this container (device events that end no gesture do not).
    @discardableResult
    public mutating func handle(_ event: ScrollEvent, shaping: InputShaping = .identity) -> Bool {
        advance(to: event.time)
        defer { layout() }
        switch event.kind {
        case .deviceAdded:
            return false
        case .deviceRemoved:
            // A device that vanishes mid-gesture ends that gesture as a scroll stop.
            if drag?.device == event.device {
                release(at: event.time, momentum: shaping.momentum)
                return true
            }
            if holdDevice == event.device {
                endHold(at: event.time)
                return true
            }
            return false
        case let .wheel(v120, _):
            wheel(v120, detent: shaping.detent, at: event.time)
        case let .finger(delta), let .continuous(delta):
            scroll(Self.bounded(delta), device: event.device, momentum: shaping.momentum, at: event.time)
        case .holdBegin:
            beginHold(device: event.device, at: event.time)
        case .holdEnd:
            if holdDevice != nil { endHold(at: event.time) }
        case .touchDown, .touchMotion, .touchUp, .touchCancel:
            // Touches reach a container through the engine, which knows where the finger is
            // (`ScrollEngine.touch(_:_:)`, docs/design.md §25).
            return false
        }
        return true
    }

    /// The most a finger or continuous event moves along an axis, px. No device comes near it
    /// (a touchpad's events are a few px, a fast flick a few hundred); beyond it a log's (or a
    /// driver's) absurd delta would make positions and velocities overflow to infinity.
    public static let maximumDelta = 1e6

    static func bounded(_ delta: AxisValues) -> AxisValues {
        AxisValues(x: delta.x.map { Math.clamp($0, -maximumDelta...maximumDelta) },
                   y: delta.y.map { Math.clamp($0, -maximumDelta...maximumDelta) })
    }

    // MARK: Wheel

    /// Wheel clicks: `v120 / 120 × wheel_step` along each axis; with `detent` (whole steps of
    /// 120 already counted by the device's shaper) a step goes to the next or previous row top
    /// in a container with rows along that axis.
    @usableFromInline
    mutating func wheel(_ v120: AxisValues, detent: Bool = false, at time: Timestamp) {
        var moved = false
        for axis in Axis.allCases where takesInput(axis) {
            guard let clicks = v120[axis], clicks != 0 else { continue }
            if !moved {
                // The wheel takes over from a drag or hold in progress.
                if drag != nil { drag = nil; velocity = .zero }
                holdDevice = nil
                moved = true
            }
            let range = self.range(axis)
            let byRows = detent && axis == configuration.listAxis && rowLayout != nil
            let delta = byRows ? 0 : clicks / 120 * wheelStep(axis)
            switch configuration.physics.reducedMotion ? .none : configuration.physics.wheelAnimation {
            case .none:
                let goal = byRows ? detentTarget(from: position[axis], steps: clicks / 120, axis) : position[axis] + delta
                position[axis] = Math.clamp(goal, range)
                velocity[axis] = 0
                self[motion: axis] = nil
            case .smooth:
                // A wheel spring still running retargets from its own target, read in place.
                let running = axis == .horizontal ? motionX?.wheelTarget : motionY?.wheelTarget
                let base = running ?? position[axis]
                let target = Math.clamp(byRows ? detentTarget(from: base, steps: clicks / 120, axis) : base + delta, range)
                let omega = 2 * Double.pi / configuration.physics.wheelDuration
                let spring = Spring.criticallyDamped(stiffness: omega * omega)
                let curve = SpringCurve(from: position[axis], velocity: velocity[axis], target: target, spring: spring)
                let motion = Trajectory(start: time, curve: .spring(curve), purpose: .wheel)
                if axis == .horizontal { motionX = motion } else { motionY = motion }
            }
        }
        guard moved else { return }
        let deadline = time + Timestamp((configuration.physics.wheelIdle * 1_000_000).rounded())
        wheel = WheelGesture(deadline: deadline, timerPending: true, origin: wheel?.origin ?? position)
    }

    /// `ScrollPhysics.wheelStep(forLength:)` for the current length along `axis`, remembered:
    /// `pow` costs as much as the rest of a wheel event, and the length rarely changes.
    mutating func wheelStep(_ axis: Axis) -> Double {
        let length = containerSize[axis]
        let rule = configuration.physics.wheelStep
        let memo = axis == .horizontal ? wheelStepX : wheelStepY
        if let memo, memo.length == length, memo.rule == rule { return memo.step }
        let step = configuration.physics.wheelStep(forLength: length)
        let new = WheelStepMemo(length: length, rule: rule, step: step)
        if axis == .horizontal { wheelStepX = new } else { wheelStepY = new }
        return step
    }

    // MARK: Finger and continuous

    @usableFromInline
    mutating func scroll(_ delta: AxisValues, device: Int, momentum: Bool = true, at time: Timestamp) {
        let scale = configuration.physics.fingerScale
        var step = Point.zero
        var moving = false
        for axis in Axis.allCases where takesInput(axis) {
            guard let value = delta[axis], value != 0 else { continue }
            step[axis] = value * scale
            moving = true
        }
        if moving {
            if drag == nil { beginDrag(device: device) }
            tracker.add(step, at: time)
            // The directional lock holds the deltas until it decides, then passes the locked
            // axis only (docs/design.md §22); the velocity is masked the same way.
            if locksDirection { step = drag!.lock.filter(step) }
            var raw = drag!.raw
            for axis in Axis.allCases where takesInput(axis) {
                raw[axis] += step[axis]
                position[axis] = shown(raw: raw[axis], axis)
            }
            drag!.raw = raw
            velocity = scaledVelocity()
        } else if isStop(delta) && drag != nil {
            tracker.add(.zero, at: time)
            release(at: time, momentum: momentum)
        }
    }

    /// A finger or continuous event whose present axes are all 0.
    @inline(__always)
    func isStop(_ delta: AxisValues) -> Bool {
        (delta.x ?? 0) == 0 && (delta.y ?? 0) == 0 && (delta.x != nil || delta.y != nil)
    }

    @usableFromInline
    mutating func beginDrag(device: Int) {
        stopMotion()
        wheel = nil
        holdDevice = nil
        tracker.reset()
        var raw = position
        for axis in Axis.allCases where scrolls(axis) {
            raw[axis] = unshown(position[axis], axis)
        }
        drag = Drag(device: device, raw: raw, origin: position)
    }

    /// The shown offset for a raw drag position: itself inside the range, rubber-banded (or
    /// limited, or clamped) beyond it.
    @inline(__always)
    func shown(raw r: Double, _ axis: Axis) -> Double {
        let range = self.range(axis)
        if r < range.lowerBound { return range.lowerBound - overshoot(range.lowerBound - r, axis) }
        if r > range.upperBound { return range.upperBound + overshoot(r - range.upperBound, axis) }
        return r
    }

    @inline(__always)
    func overshoot(_ x: Double, _ axis: Axis) -> Double {
        let physics = configuration.physics
        guard physics.overscroll else { return 0 }
        if let limit = physics.dragOvershootLimit { return min(x, limit) }
        return RubberBand(coefficient: physics.rubberBand, dimension: containerSize[axis]).band(x)
    }

    /// The raw position a drag resumes from when it starts at a shown offset beyond an edge.
    @inline(__always)
    func unshown(_ y: Double, _ axis: Axis) -> Double {
        let physics = configuration.physics
        let range = self.range(axis)
        let edge: Double, sign: Double
        if y < range.lowerBound { edge = range.lowerBound; sign = -1 }
        else if y > range.upperBound { edge = range.upperBound; sign = 1 }
        else { return y }
        let s = abs(y - edge)
        guard physics.overscroll, physics.dragOvershootLimit == nil else { return y }
        return edge + sign * RubberBand(coefficient: physics.rubberBand, dimension: containerSize[axis]).inverse(s)
    }

    /// docs/design.md §5 "Release": bounce back if overscrolled, else fling if fast enough, else
    /// rest. Without `momentum` (docs/design.md §18, the releasing device's shaping) it never
    /// flings: it rests, bounces back, or aims at a scroll target from where it was released.
    @usableFromInline
    mutating func release(at time: Timestamp, momentum: Bool = true) {
        guard let gesture = drag else { return }
        startRefreshIfPulled()
        let v = scaledVelocity()
        drag = nil
        velocity = .zero
        let physics = configuration.physics
        var endPoint = position
        var fling = Point.zero
        for axis in Axis.allCases where scrolls(axis) {
            let range = self.range(axis)
            let y = position[axis]
            if y < range.lowerBound || y > range.upperBound {
                let edge = Math.clamp(y, range)
                let curve = SpringCurve(from: y, velocity: 0, target: edge, spring: .criticallyDamped(stiffness: physics.bounceStiffness))
                self[motion: axis] = Trajectory(start: time, curve: .spring(curve), purpose: .momentum)
            } else if momentum && physics.momentum && abs(v[axis]) >= physics.minFlingVelocity {
                let deceleration: Deceleration
                let ending: DecelerationPath.Ending
                switch physics.profile {
                case .gtk:
                    deceleration = .gtk(from: y, velocity: v[axis], friction: physics.friction)
                    ending = .speed
                case .ios, .none:
                    deceleration = .ios(from: y, velocity: v[axis], rate: physics.decelerationRate)
                    ending = .distance
                }
                endPoint[axis] = deceleration.restingPoint
                velocity[axis] = v[axis]
                fling[axis] = v[axis]
                // A proximity snap that does not catch the resting point lets the fling run.
                if !aimsAtScrollTarget(axis) || snapTarget(axis, origin: gesture.origin[axis], endPoint: endPoint[axis], fling: v[axis]) == nil {
                    let path = DecelerationPath(deceleration, ending: ending, range: range, physics: physics)
                    self[motion: axis] = Trajectory(start: time, curve: .deceleration(path), purpose: .momentum)
                }
            }
        }
        aimAtScrollTarget(from: gesture.origin, endPoint: endPoint, fling: fling, at: time)
        for axis in Axis.allCases where self[motion: axis] == nil { velocity[axis] = 0 }
        snapArmed = true
        settleIfIdle(at: time)
    }

    // MARK: Hold

    @usableFromInline
    mutating func beginHold(device: Int, at time: Timestamp) {
        stopMotion()
        drag = nil
        wheel = nil
        holdDevice = device
    }

    /// The fingers lift without scrolling: rest, or bounce back from beyond an edge.
    @usableFromInline
    mutating func endHold(at time: Timestamp) {
        holdDevice = nil
        let stiffness = configuration.physics.bounceStiffness
        for axis in Axis.allCases where scrolls(axis) {
            let range = self.range(axis)
            let y = position[axis]
            guard y < range.lowerBound || y > range.upperBound else { continue }
            let curve = SpringCurve(from: y, velocity: 0, target: Math.clamp(y, range), spring: .criticallyDamped(stiffness: stiffness))
            self[motion: axis] = Trajectory(start: time, curve: .spring(curve), purpose: .momentum)
        }
        snapArmed = true
        settleIfIdle(at: time)
    }
}
