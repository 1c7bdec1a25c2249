import ScrollConfig
import ScrollModel
import Testing

@Suite("Configuration keys, defaults and errors")
struct ConfigurationTests {
    @Test func theDefaultContainerIsMain800x600WithContent800x20000Vertical() throws {
        let main = try Configuration.defaults.resolve(container: "main")
        #expect(main.containerSize == Size(width: 800, height: 600))
        #expect(main.contentSize == Size(width: 800, height: 20000))
        #expect(main.axes == .vertical)
        #expect(main.physics == ScrollPhysics())
        #expect(Configuration.defaults.daemon.frameRate == 120)
    }

    @Test func aProfileSetsDefaultsAndExplicitConstantsWinWhateverTheOrder() throws {
        var config = Configuration()
        try config.set("physics.finger_scale", .double(3))
        try config.set("physics.profile", .string("gtk"))
        let physics = try config.resolvePhysics()
        #expect(physics.profile == .gtk)
        #expect(physics.fingerScale == 3)
        #expect(physics.flingOvershootLimit == 50)

        var none = Configuration()
        try none.set("physics.profile", .string("none"))
        #expect(try none.resolvePhysics().overscroll == false)
        #expect(try none.resolvePhysics().wheelAnimation == .none)
    }

    @Test func setValuesParseLikeTOMLScalars() throws {
        #expect(SettingValue(parsing: "none") == .string("none"))
        #expect(SettingValue(parsing: "\"none\"") == .string("none"))
        #expect(SettingValue(parsing: "0.2") == .double(0.2))
        #expect(SettingValue(parsing: "120") == .integer(120))
        #expect(SettingValue(parsing: "false") == .bool(false))
        #expect(SettingValue(parsing: "[1, 2]") == .array([.integer(1), .integer(2)]))
        var config = Configuration()
        try config.set("physics.wheel_step", SettingValue(parsing: "40"))
        #expect(try config.resolvePhysics().wheelStep == .points(40))
        try config.set("physics.wheel_step", SettingValue(parsing: "auto"))
        #expect(try config.resolvePhysics().wheelStep == .auto)
    }

    /// A table-valued key (`touch_frame`, `rows.runs`) takes its value as a file writes it
    /// inline: `--set` reaches every key.
    @Test func setValuesTakeInlineTablesAndNestedListsAsTOMLWritesThem() throws {
        let frame = SettingValue(parsing: "{x = 0, y = 0.5, width = 0.5, height = 0.5}")
        #expect(frame == .object([("x", .integer(0)), ("y", .double(0.5)), ("width", .double(0.5)), ("height", .double(0.5))]))
        var config = Configuration()
        try config.set("containers.main.touch_frame", frame)
        #expect(try config.resolve(container: "main").touchFrame == Rect(x: 0, y: 0.5, width: 0.5, height: 0.5))
        try config.set("containers.main.rows.runs", SettingValue(parsing: "[[10, 44], [5, 60]]"))
        #expect(try config.resolve(container: "main").rows?.heights.offset(ofRow: 15) == 740)
        // Not TOML: taken as the string it is, and refused by the key that reads it.
        #expect(SettingValue(parsing: "{x=}") == .string("{x=}"))
    }

    /// The keys of a table-valued key, one at a time, as `--set` gives them and as errors name
    /// them (`containers.main.touch_frame.x`), the way `refresh.threshold` is set: each changes
    /// its key alone; a frame or a content size the container does not have yet waits for its
    /// other keys, and the container is refused meanwhile, at the first one missing.
    @Test func theKeysOfATableValuedKeyAreSetOneAtATime() throws {
        var config = Configuration()
        for (key, value) in [("x", "0"), ("y", "0.25"), ("width", "0.5")] {
            try config.set("containers.main.touch_frame.\(key)", SettingValue(parsing: value[...]))
        }
        #expect(throws: ConfigurationError(key: "containers.main.touch_frame.height", message: "touch_frame needs x, y, width and height")) {
            _ = try config.resolve(container: "main")
        }
        try config.set("containers.main.touch_frame.height", SettingValue(parsing: "1"))
        #expect(try config.resolve(container: "main").touchFrame == Rect(x: 0, y: 0.25, width: 0.5, height: 1))
        try config.set("containers.main.touch_frame.width", SettingValue(parsing: "1"))
        #expect(try config.resolve(container: "main").touchFrame == Rect(x: 0, y: 0.25, width: 1, height: 1))

        try config.set("containers.main.containerSize.width", SettingValue(parsing: "400"))
        try config.set("containers.main.contentInsets.top", SettingValue(parsing: "30"))
        try config.set("containers.main.contentSize.height", SettingValue(parsing: "5000"))
        #expect(throws: ConfigurationError(key: "containers.main.contentSize.width", message: "contentSize needs width and height")) {
            _ = try config.resolve(container: "main")
        }
        try config.set("containers.main.contentSize.width", SettingValue(parsing: "400"))
        let main = try config.resolve(container: "main")
        #expect(main.containerSize == Size(width: 400, height: 600))
        #expect(main.contentInsets == EdgeInsets(top: 30, leading: 0, bottom: 0, trailing: 0))
        #expect(main.contentSize == Size(width: 400, height: 5000))

        // Checked as in the table, each at its key.
        let refusals: [(String, String, String)] = [
            ("touch_frame.depth", "1", "containers.main.touch_frame.depth: unknown touch_frame key (x, y, width, height)"),
            ("touch_frame.width", "0", "containers.main.touch_frame.width: must be between 0.0001 and 1, got 0"),
            ("contentSize.depth", "3", "containers.main.contentSize.depth: unknown size key (width, height)"),
            ("container_size.height", "-4", "containers.main.container_size.height: must not be negative, got -4"),
            ("insets.middle", "1", "containers.main.insets.middle: unknown inset (top, leading, bottom, trailing)"),
            ("axes.x", "1", "containers.main.axes.x: unknown container key (containerSize.*, contentSize.*, insets.*, axes, scroll_target, anchor, devices, parent, overscroll, touch_frame.*, directional_lock, bounce, snap_type, snap_proximity, snap_stop, indicator_min_length, indicator_linger_ms, header.*, rows.*, refresh.*, physics.*)"),
        ]
        for (key, value, message) in refusals {
            let error = #expect(throws: ConfigurationError.self) { try config.set("containers.main.\(key)", SettingValue(parsing: value[...])) }
            #expect(error?.description == message)
        }
        #expect(try config.resolve(container: "main").contentSize == Size(width: 400, height: 5000))
        // An empty frame takes it away, keys waiting for the rest included.
        try config.set("containers.main.touch_frame.x", SettingValue(parsing: "0.5"))
        try config.set("containers.main.touch_frame", .object([]))
        #expect(try config.resolve(container: "main").touchFrame == nil)
        try config.set("containers.fresh.touch_frame.x", SettingValue(parsing: "0.5"))
        try config.set("containers.fresh.touch_frame", .object([]))
        #expect(try config.resolve(container: "fresh").touchFrame == nil)
    }

    /// Containers are found by name after any mix of additions and removals, in the order they
    /// were defined (the configuration keeps where each one is rather than looking along them).
    @Test func containersAreFoundByNameAfterRemovalsAndAdditions() throws {
        var config = Configuration()
        for index in 0..<10 { try config.set("containers.c\(index).containerSize", .string("\(100 + index)x600")) }
        config.removeContainer("c3")
        config.removeContainer("main")
        config.removeContainer("nosuch")
        config.defineContainer("late")
        var other = Configuration()
        try other.set("containers.c3.containerSize", .string("7x600"))
        try other.set("containers.c9.containerSize", .string("8x600"))
        config.keepContainers(from: other)
        try config.setRows(of: "rows", .object([("count", .integer(2)), ("height", .integer(10))]))
        #expect(config.containers.map(\.name) == ["c0", "c1", "c2", "c4", "c5", "c6", "c7", "c8", "c9", "late", "main", "c3", "rows"])
        for settings in config.containers {
            #expect(config.container(named: settings.name)?.name == settings.name)
            #expect(config.container(named: settings.name)?.containerSize == settings.containerSize)
        }
        #expect(config.container(named: "c9")?.containerSize.width == 109)
        #expect(config.container(named: "c3")?.containerSize.width == 7)
        #expect(try config.resolve(container: "rows").rows?.heights.count == 2)
        try config.set("containers.c5.containerSize", .string("55x600"))
        #expect(config.containers[4].containerSize.width == 55)
    }

    @Test func containersTakeSizesInsetsAxesHeaderAndRows() throws {
        var config = Configuration()
        try config.set("containers.list.containerSize", .string("400x300"))
        try config.set("containers.list.insets", .string("10,0,20,0"))
        try config.set("containers.list.axes", .string("both"))
        try config.set("containers.list.header.min_height", .integer(60))
        try config.set("containers.list.header.max_height", .integer(200))
        try config.set("containers.list.rows.count", .integer(50))
        try config.set("containers.list.rows.height", .integer(44))
        let list = try config.resolve(container: "list")
        #expect(list.containerSize == Size(width: 400, height: 300))
        #expect(list.contentInsets == EdgeInsets(top: 10, leading: 0, bottom: 20, trailing: 0))
        #expect(list.axes == .both)
        #expect(list.header == HeaderConfiguration(minHeight: 60, maxHeight: 200))
        #expect(list.rows == RowsConfiguration(count: 50, height: 44))
        // Rows define the content's ideal size, so no default content size is imposed.
        #expect(list.contentSize == nil)
    }

    @Test func errorsNameTheKeyAndWhatWasExpected() {
        var config = Configuration()
        #expect(throws: ConfigurationError(key: "physics.wheel_animation", message: "expected one of none, smooth, got a string \"bouncy\"")) {
            try config.set("physics.wheel_animation", .string("bouncy"))
        }
        #expect(throws: ConfigurationError.self) { try config.set("physics.nonsense", .integer(1)) }
        #expect(throws: ConfigurationError.self) { try config.set("containers.main.containerSize", .string("800by600")) }
        #expect(throws: ConfigurationError.self) { try config.set("physics.deceleration_rate", .double(1.5)) }
        #expect(throws: ConfigurationError.self) { try config.set("daemon.frame_rate", .integer(0)) }
        #expect(throws: ConfigurationError.self) { try config.set("bogus", .integer(0)) }
        do {
            try config.set("containers.main.header.max_height", .integer(10))
            try config.set("containers.main.header.min_height", .integer(50))
            _ = try config.resolve(container: "main")
            Issue.record("min above max must fail")
        } catch {
            #expect(error.key == "containers.main.header.min_height")
        }
    }
}

@Suite("[input]: libinput settings per device")
struct InputSettingsTests {
    @Test func defaultsThenMatchingRulesInOrder() throws {
        let config = try Configuration.parse("""
            [input]
            natural_scrolling = true
            scroll_method = "two-finger"

            [input.devices.trackpoint]
            match = "TrackPoint"
            scroll_method = "button"
            scroll_button = 274

            [input.devices.mice]
            match = "Mouse"
            natural_scrolling = false
            """, file: "scrolld.toml")
        let input = config.input
        #expect(input.settings(forDevice: "Generic USB Mouse") == InputSettings.Device(naturalScrolling: false, scrollMethod: .twoFinger))
        #expect(input.settings(forDevice: "TPPS/2 IBM TrackPoint") == InputSettings.Device(naturalScrolling: true, scrollMethod: .button, scrollButton: 274))
        #expect(input.settings(forDevice: "SynPS/2 Synaptics TouchPad") == InputSettings.Device(naturalScrolling: true, scrollMethod: .twoFinger))
        #expect(InputSettings().settings(forDevice: "anything") == InputSettings.Device())
    }

    @Test func badInputValuesNameTheirKeyAndLine() {
        #expect(throws: ConfigurationError(key: "input.scroll_method", message: "expected one of two-finger, edge, button, none, got a string \"wheel\"", line: 2, file: "f.toml")) {
            _ = try Configuration.parse("[input]\nscroll_method = \"wheel\"\n", file: "f.toml")
        }
        #expect(throws: ConfigurationError.self) {
            _ = try Configuration.parse("[input.devices.x]\nscroll_button = -1\n", file: "f.toml")
        }
        #expect(throws: ConfigurationError.self) {
            _ = try Configuration.parse("[input]\nnatural = true\n", file: "f.toml")
        }
    }

    @Test func aReloadKeepsTheContainersClientsCreated() throws {
        var old = Configuration()
        try old.set("containers.side.containerSize", .string("300x200"))
        var new = try Configuration.parse("[containers.main]\ncontainerSize = \"800x500\"\n", file: "f.toml")
        new.keepContainers(from: old)
        #expect(try new.resolve(container: "side").containerSize == Size(width: 300, height: 200))
        #expect(try new.resolve(container: "main").containerSize == Size(width: 800, height: 500))
    }
}

@Suite struct SettingValueHashingTests {
    /// Hashable's law: values that are equal hash the same (the hash was the description's,
    /// which tells 0.0 from -0.0 while `==` does not).
    @Test func equalValuesHashTheSame() {
        let pairs: [(SettingValue, SettingValue)] = [
            (.double(0.0), .double(-0.0)),
            (.array([.double(-0.0)]), .array([.double(0.0)])),
            (.object([("a", .double(-0.0))]), .object([("a", .double(0.0))])),
        ]
        for (a, b) in pairs {
            #expect(a == b)
            #expect(a.hashValue == b.hashValue, "\(a) and \(b)")
            #expect(Set([a, b]).count == 1)
        }
        #expect(SettingValue.integer(1) != .double(1))
    }
}
