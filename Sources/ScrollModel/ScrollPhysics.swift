/// Every constant of docs/design.md §5. A profile picks the feel; each constant can then be
/// overridden.
public struct ScrollPhysics: Hashable, Sendable {
    /// A named set of defaults, the config key `profile` (`--profile`).
    public enum Profile: String, Hashable, Sendable, CaseIterable {
        /// iOS: exponential deceleration per millisecond, rubber band, critically damped bounce.
        case ios
        /// GTK 4: friction deceleration, linear overshoot limited while dragging and flinging.
        case gtk
        /// No momentum and no overscroll; wheel steps jump and clamp.
        case none
    }

    /// How far one wheel detent (120 v120 units) scrolls, the config key `wheel_step`.
    public enum WheelStep: Hashable, Sendable {
        /// `H^(2/3)` px per detent, H the container's length along the axis.
        case auto
        /// A fixed number of px per detent.
        case points(Double)
    }

    /// How a wheel step moves the offset, the config key `wheel_animation`.
    public enum WheelAnimation: String, Hashable, Sendable, CaseIterable {
        /// Jump: `clamp(y + delta_px, lo, hi)` at once.
        case none
        /// Follow a critically damped spring of ``ScrollPhysics/wheelDuration`` toward the
        /// accumulated target `T = clamp(T + delta_px)` (the default).
        case smooth
    }

    /// The profile the defaults came from; also picks the deceleration (`gtk`: friction, else
    /// `ios`'s rate).
    public var profile: Profile
    /// px per wheel detent (`wheel_step`): `delta_px = v120 / 120 × step`; default
    /// ``WheelStep/auto``.
    public var wheelStep: WheelStep = .auto
    /// `wheel_animation`: smooth by default, `none` for the `none` profile.
    public var wheelAnimation: WheelAnimation = .smooth
    /// `reduced_motion` (docs/design.md §23): programmatic animations (`scrollTo`, `scrollBy`,
    /// the wheel's) and the header snap happen at once; drags, momentum and the rubber band
    /// stay. A desktop's reduced motion sets it unless the configuration does.
    public var reducedMotion: Bool = false
    /// Seconds; the wheel spring's `ω = 2π / wheelDuration`.
    public var wheelDuration: Double = 0.2
    /// Seconds of wheel silence before a wheel gesture ends.
    public var wheelIdle: Double = 0.25
    /// `finger_scale`: multiplies finger and continuous deltas (1.0; `gtk` 2.5).
    public var fingerScale: Double = 1.0
    /// The rubber band's `c`.
    public var rubberBand: Double = 0.55
    /// `overscroll`: whether drags and flings may pass an edge (rubber band, bounce); false
    /// clamps them. False for `none`.
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
    /// px: a spring has settled within this distance of its target… (`settle_distance`, 0.5)
    public var settleDistance: Double = 0.5
    /// …and slower than this, px/s (`settle_velocity`, 10), on every moving axis, checked on
    /// frame ticks (docs/design.md §5 "Settle").
    public var settleVelocity: Double = 10
    /// 1/s: GTK's friction deceleration `y0 + (v0/f)(1 − e^(−fτ))`.
    public var friction: Double = 4
    /// px/s: a GTK deceleration ends below this speed.
    public var stopVelocity: Double = 0.1
    /// px: the GTK overshoot limit while dragging, linear instead of the rubber band
    /// (`drag_overshoot_limit`; nil: the rubber band, `ios`; `gtk` 100).
    public var dragOvershootLimit: Double? = nil
    /// px: how far a fling's bounce may pass the edge (`fling_overshoot_limit`; nil: unlimited,
    /// `ios`; `gtk` 50).
    public var flingOvershootLimit: Double? = nil
    /// px: how far a touch moves (container px, Euclidean) before the content follows it, and
    /// then how far the content lags behind the finger (`touch_slop`, docs/design.md §25).
    public var touchSlop: Double = 8

    /// The defaults of `profile` (docs/physics.md): `gtk` sets `fingerScale` 2.5 and overshoot
    /// limits 100 / 50 px; `none` turns off overscroll, momentum and the wheel animation.
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
