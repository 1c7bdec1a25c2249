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

    /// Applies a new configuration. Without an animation the geometry changes at once, running
    /// motion stops and the offset is clamped into the new resting range. With one, size, content
    /// size and insets move along its spring (from their current values and velocities), and
    /// everything derived from them is resolved from the animated geometry at every frame.
    public mutating func configure(_ configuration: ContainerConfiguration, animation: ScrollAnimation = .none, at time: Timestamp) {
        advance(to: time)
        if configuration.physics.velocityWindow != self.configuration.physics.velocityWindow {
            tracker = VelocityTracker(window: configuration.physics.velocityWindow)
        }
        let current = GeometryAnimation.components(containerSize: containerSize, contentSize: contentSize, insets: contentInsets)
        let velocity = (0..<GeometryAnimation.componentCount).map { geometryAnimation?.velocity($0, at: time) ?? 0 }
        self.configuration = configuration
        rowLayout = Self.rowLayout(configuration)
        let targetContent = Self.idealContentSize(configuration)
        switch animation {
        case .none:
            geometryAnimation = nil
            containerSize = configuration.containerSize
            contentSize = targetContent
            contentInsets = configuration.contentInsets
            stopMotion()
            drag = nil
            wheel = nil
            holdDevice = nil
            for axis in Axis.allCases {
                position[axis] = scrolls(axis) ? Math.clamp(position[axis], range(axis)) : range(axis).lowerBound
            }
            settleIfIdle(at: time)
        case .spring(let spring):
            let target = GeometryAnimation.components(
                containerSize: configuration.containerSize, contentSize: targetContent, insets: configuration.contentInsets
            )
            geometryAnimation = GeometryAnimation(from: current, velocity: velocity, to: target, spring: spring, at: time)
        }
        layout()
    }
}
