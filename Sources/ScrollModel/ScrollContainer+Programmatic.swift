extension ScrollContainer {
    /// `scrollTo`: moves to `target` (axes left nil stay), clamped to the resting range, at once
    /// or along a spring from the current position and velocity (phase `animating`).
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
                moved = true
            }
            let destination = Math.clamp(value, range(axis))
            switch animation {
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

    /// Applies a new configuration at once: the content is sized anew, running motion stops, and
    /// the offset is clamped into the new resting range.
    public mutating func configure(_ configuration: ContainerConfiguration, at time: Timestamp) {
        advance(to: time)
        if configuration.physics.velocityWindow != self.configuration.physics.velocityWindow {
            tracker = VelocityTracker(window: configuration.physics.velocityWindow)
        }
        self.configuration = configuration
        resolveLayout()
        stopMotion()
        drag = nil
        wheel = nil
        holdDevice = nil
        for axis in Axis.allCases {
            position[axis] = scrolls(axis) ? Math.clamp(position[axis], range(axis)) : range(axis).lowerBound
        }
        settleIfIdle(at: time)
        layout()
    }
}
