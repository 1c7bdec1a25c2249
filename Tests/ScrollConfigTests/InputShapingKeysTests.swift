import ScrollConfig
import ScrollModel
import Testing

/// docs/design.md §18's keys of `[input.devices.NAME]` (and `[input]`): resolution per device name,
/// validation with the key and line, `--set`, and the engine assignments a recording carries.
@Suite("[input]: shaping keys per device")
struct InputShapingKeysTests {
    static let file = """
        [input]
        wheel_acceleration_window_ms = 80

        [input.devices.mice]
        match = "Mouse"
        speed = 2
        speed_x = 3
        wheel_acceleration = 2.5

        [input.devices.usb]
        match = "USB"
        speed = 1.5
        detent = true

        [input.devices.trackball]
        match = "Trackball"
        momentum = false
        scroll_button_lock = true
        """

    @Test func rulesResolveInFileOrderKeyByKey() throws {
        let config = try Configuration.parse(Self.file, file: "scrolld.toml")
        let rules = config.input.shapingRules
        // Mouse, then USB: speed 1.5 overrides 2, speed_x 3 stays; the window from [input].
        #expect(rules.shaping(forDevice: "Logitech USB Optical Mouse") == InputShaping(
            speedX: 3, speedY: 1.5, wheelAcceleration: 2.5, wheelAccelerationWindow: 80, momentum: true, detent: true
        ))
        #expect(rules.shaping(forDevice: "Generic Mouse") == InputShaping(speedX: 3, speedY: 2, wheelAcceleration: 2.5, wheelAccelerationWindow: 80))
        #expect(rules.shaping(forDevice: "Kensington Trackball") == InputShaping(wheelAccelerationWindow: 80, momentum: false))
        #expect(rules.shaping(forDevice: "SynPS/2 Synaptics TouchPad") == InputShaping(wheelAccelerationWindow: 80))
        #expect(rules.shaping(forDevice: nil) == InputShaping(wheelAccelerationWindow: 80))
        #expect(config.input.ruleNames(forDevice: "Logitech USB Optical Mouse") == ["mice", "usb"])
        #expect(config.input.ruleNames(forDevice: "Touchpad") == [])
        #expect(config.input.settings(forDevice: "Kensington Trackball").scrollButtonLock == true)
        #expect(Configuration().input.shapingRules.shaping(forDevice: "anything").isIdentity)
    }

    @Test(arguments: [
        ("speed = 0", "input.devices.m.speed", "must be greater than 0, got 0"),
        ("speed = -2.5", "input.devices.m.speed", "must be greater than 0, got -2.5"),
        ("speed_x = inf", "input.devices.m.speed_x", "expected a finite number, got inf"),
        ("speed_y = nan", "input.devices.m.speed_y", "expected a finite number, got nan"),
        ("speed = \"fast\"", "input.devices.m.speed", "expected a number, got a string \"fast\""),
        ("wheel_acceleration = 0.9", "input.devices.m.wheel_acceleration", "must be at least 1 (1 turns acceleration off), got 0.9"),
        ("wheel_acceleration_window_ms = 0", "input.devices.m.wheel_acceleration_window_ms", "must be greater than 0, got 0"),
        ("wheel_acceleration_window_ms = -10", "input.devices.m.wheel_acceleration_window_ms", "must be greater than 0, got -10"),
        ("momentum = 0", "input.devices.m.momentum", "expected true or false, got an integer 0"),
        ("detent = \"yes\"", "input.devices.m.detent", "expected true or false, got a string \"yes\""),
        ("scroll_button_lock = 1", "input.devices.m.scroll_button_lock", "expected true or false, got an integer 1"),
    ])
    func outOfRangeValuesNameTheKeyAndLine(line: String, key: String, message: String) throws {
        let text = "[input.devices.m]\nmatch = \"Mouse\"\n\(line)\n"
        let error = try #require(failure(text, file: "f.toml"))
        #expect(error.key == key)
        #expect(error.line == 3)
        #expect(error.message == message, "\(error.message)")
    }

    /// `--set` takes the same keys with the same checks.
    @Test func setAssignsAndValidatesTheSameKeys() throws {
        var config = Configuration()
        try config.set("input.devices.pad.match", .string("Touchpad"))
        try config.set("input.devices.pad.speed_y", .double(0.5))
        try config.set("input.detent", .bool(true))
        #expect(config.input.shapingRules.shaping(forDevice: "ELAN Touchpad") == InputShaping(speedX: 1, speedY: 0.5, detent: true))
        #expect(throws: ConfigurationError(key: "input.devices.pad.speed", message: "must be greater than 0, got 0")) {
            try config.set("input.devices.pad.speed", .integer(0))
        }
    }

    /// A recording's configuration carries the shaping rules, so a replay shapes as live did.
    @Test func engineAssignmentsCarryTheRules() throws {
        let config = try Configuration.parse(Self.file, file: "scrolld.toml")
        let copy = try Configuration(engineAssignments: config.engineAssignments)
        #expect(copy.input.shapingRules == config.input.shapingRules)
        let keys = config.engineAssignments.map(\.key)
        #expect(keys.contains("input.devices.usb.match"))
        #expect(keys.contains("input.wheel_acceleration_window_ms"))
        // libinput's keys decide no state: they stay out.
        #expect(!keys.contains("input.devices.trackball.scroll_button_lock"))
    }
}
