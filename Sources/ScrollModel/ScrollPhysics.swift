/// Every constant of DESIGN §5. A profile picks the feel; each constant can then be overridden.
public struct ScrollPhysics: Hashable, Sendable {
    public enum Profile: String, Hashable, Sendable, CaseIterable {
        /// iOS: exponential deceleration per millisecond, rubber band, critically damped bounce.
        case ios
        /// GTK 4: friction deceleration, linear overshoot limited while dragging and flinging.
        case gtk
        /// No momentum and no overscroll; wheel steps jump and clamp.
        case none
    }

    public enum WheelStep: Hashable, Sendable {
        /// `H^(2/3)` px per detent, H the container's length along the axis.
        case auto
        case points(Double)
    }

    public enum WheelAnimation: String, Hashable, Sendable, CaseIterable {
        case none
        case smooth
    }

    public var profile: Profile
    public var wheelStep: WheelStep = .auto
    public var wheelAnimation: WheelAnimation = .smooth
    /// Seconds; the wheel spring's `ω = 2π / wheelDuration`.
    public var wheelDuration: Double = 0.2
    /// Seconds of wheel silence before a wheel gesture ends.
    public var wheelIdle: Double = 0.25
    public var fingerScale: Double = 1.0
    /// The rubber band's `c`.
    public var rubberBand: Double = 0.55
    public var overscroll: Bool = true
    /// Whether a release carries momentum at all (`none` has none).
    public var momentum: Bool = true
    /// px/s.
    public var minFlingVelocity: Double = 50
    /// Seconds of event time over which the release velocity is measured.
    public var velocityWindow: Double = 0.150
    /// Per millisecond (`ios`).
    public var decelerationRate: Double = 0.998
    /// px: an `ios` deceleration ends within this distance of its end point.
    public var decelerationEndDistance: Double = 0.5
    /// The bounce spring's stiffness (mass 1, critically damped).
    public var bounceStiffness: Double = 100
    /// px and px/s: a spring has settled within these of its target.
    public var settleDistance: Double = 0.5
    public var settleVelocity: Double = 10
    /// 1/s: GTK's friction deceleration `y0 + (v0/f)(1 − e^(−fτ))`.
    public var friction: Double = 4
    /// px/s: a GTK deceleration ends below this speed.
    public var stopVelocity: Double = 0.1
    /// px: the GTK overshoot limit while dragging and during flings (nil: unlimited, `ios`).
    public var dragOvershootLimit: Double? = nil
    public var flingOvershootLimit: Double? = nil

    public init(profile: Profile = .ios) {
        self.profile = profile
        switch profile {
        case .ios:
            break
        case .gtk:
            fingerScale = 2.5
            dragOvershootLimit = 100
            flingOvershootLimit = 50
        case .none:
            overscroll = false
            momentum = false
            wheelAnimation = .none
        }
    }

    /// The wheel step along an axis of length `length`.
    @inlinable
    public func wheelStep(forLength length: Double) -> Double {
        switch wheelStep {
        case .auto: return Math.pow(max(0, length), 2.0 / 3.0)
        case .points(let points): return points
        }
    }
}
