import ScrollModel

/// `[physics]` keys: every constant of docs/design.md §5 under its snake_case name.
extension ScrollPhysics {
    /// The keys `[physics]` accepts, in the order the shipped config documents them.
    public static let keys = [
        "profile", "wheel_step", "wheel_animation", "wheel_duration", "wheel_idle", "finger_scale",
        "rubber_band", "overscroll", "momentum", "min_fling_velocity", "velocity_window",
        "deceleration_rate", "deceleration_end_distance", "bounce_stiffness", "settle_distance",
        "settle_velocity", "friction", "stop_velocity", "drag_overshoot_limit", "fling_overshoot_limit",
        "touch_slop", "reduced_motion",
    ]

    static func profile(_ value: ConfigValue, key: String) throws(ConfigurationError) -> Profile {
        try value.choice(key, Profile.self)
    }

    /// Checks a value against its key without applying it, so a bad `--set` or file fails at
    /// once, with its own key and line.
    static func validate(_ name: String, _ value: ConfigValue, key: String) throws(ConfigurationError) {
        var scratch = ScrollPhysics()
        if name == "profile" {
            _ = try profile(value, key: key)
        } else {
            try scratch.set(name, value, key: key)
        }
    }

    mutating func set(_ name: String, _ value: ConfigValue, key: String) throws(ConfigurationError) {
        switch name {
        case "wheel_step":
            if case .string("auto") = value { wheelStep = .auto } else {
                guard let n = try? value.positive(key) else { throw value.fail(key, "\"auto\" or a number of px per detent") }
                wheelStep = .points(n)
            }
        case "wheel_animation": wheelAnimation = try value.choice(key, WheelAnimation.self)
        case "wheel_duration": wheelDuration = try value.number(key, in: Limits.springDuration)
        case "wheel_idle": wheelIdle = try value.number(key, in: Limits.wheelIdle)
        case "finger_scale": fingerScale = try value.number(key)
        case "rubber_band": rubberBand = try value.nonNegative(key)
        case "overscroll": overscroll = try value.bool(key)
        case "momentum": momentum = try value.bool(key)
        case "reduced_motion": reducedMotion = try value.bool(key)
        case "min_fling_velocity": minFlingVelocity = try value.nonNegative(key)
        case "velocity_window": velocityWindow = try value.number(key, in: Limits.velocityWindow)
        case "deceleration_rate":
            decelerationRate = try value.number(key, in: Limits.decelerationRate)
        case "deceleration_end_distance": decelerationEndDistance = try value.number(key, in: Limits.threshold)
        case "bounce_stiffness": bounceStiffness = try value.number(key, in: Limits.springStiffness)
        case "settle_distance": settleDistance = try value.number(key, in: Limits.threshold)
        case "settle_velocity": settleVelocity = try value.number(key, in: Limits.threshold)
        case "friction": friction = try value.number(key, in: Limits.friction)
        case "stop_velocity": stopVelocity = try value.number(key, in: Limits.threshold)
        case "drag_overshoot_limit": dragOvershootLimit = try value.nonNegative(key)
        case "fling_overshoot_limit": flingOvershootLimit = try value.nonNegative(key)
        case "touch_slop": touchSlop = try value.number(key, in: Limits.touchSlop)
        case "profile": profile = try Self.profile(value, key: key)
        default:
            throw ConfigurationError(key: key, message: "unknown physics key (one of: \(Self.keys.joined(separator: ", ")))")
        }
    }
}
