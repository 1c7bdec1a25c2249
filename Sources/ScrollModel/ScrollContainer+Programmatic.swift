extension ScrollContainer {
    /// `scrollTo`: moves to `target` (axes left nil stay), clamped to the resting range, at once
    /// or along a spring from the current position and velocity (phase `animating`). It comes to
    /// rest exactly there: the header snap follows gestures only (docs/design.md §19).
    public mutating func scroll(to target: AxisValues, animation: ScrollAnimation, at time: Timestamp) {
        advance(to: time)
        defer { layout() }
        var moved = false
        for axis in Axis.allCases where scrolls(axis) {
            guard let value = target[axis], value.isFinite else { continue }
            if !moved {
                drag = nil
                holdDevice = nil
                wheel = nil
                snapArmed = false
                pinnedToEnd = false
                moved = true
            }
            let destination = Math.clamp(value, range(axis))
            switch configuration.physics.reducedMotion ? .none : animation {
            case .none:
                position[axis] = destination
                velocity[axis] = 0
                self[motion: axis] = nil
            case .spring(let spring):
                let curve = SpringCurve(from: position[axis], velocity: velocity[axis], target: destination, spring: spring)
                self[motion: axis] = Trajectory(start: time, curve: .spring(curve), purpose: .animation)
            }
        }
        if moved { settleIfIdle(at: time) }
    }

    /// `scrollBy`: `scrollTo` the current offset plus `delta`.
    public mutating func scroll(by delta: AxisValues, animation: ScrollAnimation, at time: Timestamp) {
        advance(to: time)
        var target = AxisValues()
        for axis in Axis.allCases {
            if let d = delta[axis] { target[axis] = position[axis] + d }
        }
        scroll(to: target, animation: animation, at: time)
    }
}
