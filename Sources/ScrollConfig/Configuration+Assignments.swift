import ScrollModel

extension Configuration {
    /// Everything of this configuration that decides what the engine computes — the frame rate,
    /// the physics, the input shaping rules and every container's settings — as dotted-key assignments which, `set` in
    /// order on the built-in defaults, give a configuration that resolves every container the
    /// same. A recording (docs/design.md §17) carries them so that a replay runs the daemon's
    /// containers as the daemon ran them, whatever configuration file the replay finds.
    ///
    /// Settings that concern only the live daemon (its socket, seat, devices, uids, real time)
    /// are left out: they change no state.
    public var engineAssignments: [(key: String, value: SettingValue)] {
        var result: [(key: String, value: SettingValue)] = [("daemon.frame_rate", .double(daemon.frameRate))]
        for (key, value) in physics { result.append(("physics.\(key)", value)) }
        result += input.shapingAssignments
        for container in containers {
            for (key, value) in container.assignments { result.append(("containers.\(container.name).\(key)", value)) }
        }
        return result
    }

    /// A configuration from `engineAssignments`: the built-in defaults, then each assignment.
    public init(engineAssignments assignments: [(key: String, value: SettingValue)]) throws(ConfigurationError) {
        self.init()
        for (key, value) in assignments { try set(key, value) }
    }
}

extension ContainerSettings {
    /// The container's keys as `set` takes them (relative to `containers.NAME`), every one
    /// written out, so that they define the container whatever it was before.
    public var assignments: [(key: String, value: SettingValue)] {
        var result: [(key: String, value: SettingValue)] = [
            ("containerSize", .size(containerSize)),
            ("insets", .object([
                ("top", .double(insets.top)), ("leading", .double(insets.leading)),
                ("bottom", .double(insets.bottom)), ("trailing", .double(insets.trailing)),
            ])),
            ("axes", .string(axes == .horizontal ? "horizontal" : axes == .vertical ? "vertical" : "both")),
            ("scroll_target", .string(scrollTarget.rawValue)),
            ("anchor", .string(anchor.rawValue)),
            ("devices", .array(devices.map { .string($0) })),
            ("parent", .string(parent ?? "")),
            ("overscroll", .string(overscroll.rawValue)),
        ]
        result += gestures.assignments
        if let contentSize { result.append(("contentSize", .size(contentSize))) }
        // An empty table: no frame (a container that had one loses it).
        result.append(("touch_frame", .object(touchFrame.map { frame in [
            ("x", .double(frame.minX)), ("y", .double(frame.minY)),
            ("width", .double(frame.width)), ("height", .double(frame.height)),
        ] } ?? [])))
        if let header { result.append(("header", .object(header.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))) }
        if var rows {
            // Rows edited by `configure` (insert, remove) are written out as the heights they
            // have now, in runs of equal heights: one entry per run as the rows store them, not
            // one per row (10⁷ uniform rows with one insert are three runs, not 10⁷ numbers, in
            // every restart store write and recording header). The edits themselves were
            // recorded as the requests that made them.
            if let editedHeights {
                rows["count"] = nil
                rows["heights"] = nil
                rows["runs"] = .array(Self.mergedRuns(editedHeights).map { .array([.integer($0.count), .double($0.height)]) })
            }
            result.append(("rows", .object(rows.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })))
        }
        if let refresh, !refresh.isEmpty { result.append(("refresh", .object(refresh.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }))) }
        if !physics.isEmpty { result.append(("physics", .object(physics.map { ($0.key, $0.value) }))) }
        return result
    }
}

extension ContainerSettings {
    /// `heights.runs` with neighbouring runs of one height joined (explicit heights come one
    /// row at a time).
    static func mergedRuns(_ heights: RowHeights) -> [(count: Int, height: Double)] {
        var merged: [(count: Int, height: Double)] = []
        for run in heights.runs {
            if let last = merged.last, last.height == run.height {
                merged[merged.count - 1].count += run.count
            } else {
                merged.append(run)
            }
        }
        return merged
    }
}

extension SettingValue {
    static func size(_ size: Size) -> SettingValue {
        .object([("width", .double(size.width)), ("height", .double(size.height))])
    }
}

extension InputSettings {
    /// The shaping keys of `[input]` and of each rule (with its `match`), in order, as `set`
    /// takes them: what decides the engine's shaping of each device (docs/design.md §18).
    var shapingAssignments: [(key: String, value: SettingValue)] {
        var result = Self.assignments(of: defaults.shaping, prefix: "input.")
        // `natural_scrolling` decides whether a desktop's natural scrolling applies.
        if let v = defaults.naturalScrolling { result.append(("input.natural_scrolling", .bool(v))) }
        for rule in rules where !rule.settings.shaping.isEmpty || rule.settings.naturalScrolling != nil {
            let prefix = "input.devices.\(rule.name)."
            if let match = rule.match { result.append((prefix + "match", .string(match))) }
            result += Self.assignments(of: rule.settings.shaping, prefix: prefix)
            if let v = rule.settings.naturalScrolling { result.append((prefix + "natural_scrolling", .bool(v))) }
        }
        return result
    }

    private static func assignments(of shaping: InputShapingRules.Rule, prefix: String) -> [(key: String, value: SettingValue)] {
        var result: [(key: String, value: SettingValue)] = []
        if let v = shaping.speed { result.append((prefix + "speed", .double(v))) }
        if let v = shaping.speedX { result.append((prefix + "speed_x", .double(v))) }
        if let v = shaping.speedY { result.append((prefix + "speed_y", .double(v))) }
        if let v = shaping.wheelAcceleration { result.append((prefix + "wheel_acceleration", .double(v))) }
        if let v = shaping.wheelAccelerationWindow { result.append((prefix + "wheel_acceleration_window_ms", .double(v))) }
        if let v = shaping.momentum { result.append((prefix + "momentum", .bool(v))) }
        if let v = shaping.detent { result.append((prefix + "detent", .bool(v))) }
        return result
    }
}
