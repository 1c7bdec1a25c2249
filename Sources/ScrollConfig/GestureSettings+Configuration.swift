import ScrollModel

/// docs/design.md §22's container keys in a configuration (`[containers.NAME]`) and in
/// `configure` requests.
extension GestureSettings {
    /// The keys, in their canonical (configuration) spelling.
    static let keys: Set<String> = [
        "directional_lock", "bounce", "snap_type", "snap_proximity", "snap_stop",
        "indicator_min_length", "indicator_linger_ms",
    ]

    /// Sets the key `name` (one of ``keys``); `key` is the whole key as written, which errors name.
    mutating func set(_ name: String, _ value: SettingValue, key: String) throws(ConfigurationError) {
        switch name {
        case "directional_lock": directionalLock = try value.bool(key)
        case "bounce": bounce = try value.choice(key, BounceBehavior.self)
        case "snap_type": snapType = try value.choice(key, SnapType.self)
        case "snap_proximity": snapProximity = try value.number(key, in: Limits.snapProximity)
        case "snap_stop": snapStop = try value.bool(key)
        case "indicator_min_length": indicatorMinLength = try value.number(key, in: Limits.indicatorMinLength)
        case "indicator_linger_ms": indicatorLingerMilliseconds = try value.number(key, in: Limits.indicatorLinger)
        default: throw ConfigurationError(key: key, message: "unknown gesture key")
        }
    }

    /// The keys that differ from the defaults, as `set` takes them: assignments start from the
    /// built-in defaults, so the others need no line (and recordings of containers that leave
    /// them alone read as before).
    var assignments: [(key: String, value: SettingValue)] {
        let defaults = GestureSettings()
        var result: [(key: String, value: SettingValue)] = []
        if directionalLock != defaults.directionalLock { result.append(("directional_lock", .bool(directionalLock))) }
        if bounce != defaults.bounce { result.append(("bounce", .string(bounce.rawValue))) }
        if snapType != defaults.snapType { result.append(("snap_type", .string(snapType.rawValue))) }
        if let snapProximity { result.append(("snap_proximity", .double(snapProximity))) }
        if snapStop != defaults.snapStop { result.append(("snap_stop", .bool(snapStop))) }
        if indicatorMinLength != defaults.indicatorMinLength { result.append(("indicator_min_length", .double(indicatorMinLength))) }
        if indicatorLingerMilliseconds != defaults.indicatorLingerMilliseconds {
            result.append(("indicator_linger_ms", .double(indicatorLingerMilliseconds)))
        }
        return result
    }
}

extension ContainerConfiguration {
    /// The configuration with `gestures` as its gesture settings.
    func with(gestures: GestureSettings) -> ContainerConfiguration {
        var copy = self
        copy.gestures = gestures
        return copy
    }
}
