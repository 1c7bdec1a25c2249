import ScrollConfig
import ScrollModel
import Testing

/// docs/design.md "Limits", as the configuration (file, `--set`, `configure`) applies it: every
/// number within 1e9, the keys that are divided by, exponentiated or turned into microseconds
/// within ranges of their own, and bounds on containers and chains.
@Suite struct LimitsKeysTests {
    static func refusal(_ key: String, _ value: SettingValue) -> String? {
        var configuration = Configuration()
        do {
            try configuration.set(key, value)
            return nil
        } catch {
            return error.description
        }
    }

    @Test(arguments: [
        // key, the largest accepted, the smallest refused above, the smallest accepted, below it
        ("physics.velocity_window", 1.0, 1.0000001, 0.001, 0.0009),
        ("physics.wheel_idle", 10.0, 10.5, 0.0, -0.001),
        ("physics.wheel_duration", 10.0, 11.0, 0.001, 0.0),
        ("physics.bounce_stiffness", 1e7, 1.1e7, 0.1, 0.09),
        ("physics.deceleration_rate", 0.9999, 0.99991, 0.5, 0.49),
        ("physics.friction", 1000.0, 1000.5, 0.1, 0.05),
        ("physics.settle_distance", 1e9, 2e9, 0.001, 1e-300),
        ("physics.settle_velocity", 1e9, 2e9, 0.001, Double.leastNonzeroMagnitude),
        ("physics.stop_velocity", 1e9, 2e9, 0.001, 0.0),
        ("physics.deceleration_end_distance", 1e9, 2e9, 0.001, 0.0),
    ])
    func eachKeyHasItsRange(key: String, high: Double, aboveHigh: Double, low: Double, belowLow: Double) {
        #expect(Self.refusal(key, .double(high)) == nil)
        #expect(Self.refusal(key, .double(low)) == nil)
        #expect(Self.refusal(key, .double(aboveHigh))?.hasPrefix("\(key): must be between ") == true, "\(key) \(aboveHigh)")
        #expect(Self.refusal(key, .double(belowLow))?.hasPrefix("\(key): must be between ") == true, "\(key) \(belowLow)")
    }

    @Test func theMessageSaysTheRange() {
        #expect(Self.refusal("physics.velocity_window", .double(100)) == "physics.velocity_window: must be between 0.001 and 1, got 100.0")
        #expect(Self.refusal("physics.wheel_idle", .double(1e13)) == "physics.wheel_idle: must be between 0 and 10, got 10000000000000.0")
        #expect(Self.refusal("physics.deceleration_rate", .double(0.99999999)) == "physics.deceleration_rate: must be between 0.5 and 0.9999, got 0.99999999")
    }

    @Test func everyNumberIsWithinAMagnitudeOf1e9() {
        #expect(Self.refusal("containers.main.containerSize", .string("800x1e10"))?.contains("expected two numbers from 0 to 1e9 (width, height)") == true)
        // A size is never negative: its range says so, not -1e9 (a user's trial).
        #expect(Self.refusal("containers.main.containerSize", .array([.double(1e12), .double(1e12)])) == "containers.main.containerSize: must be between 0 and 1e9, got 1000000000000.0")
        #expect(Self.refusal("containers.main.rows.heights", .array([.double(1e308), .double(1e308)])) == "containers.main.rows.heights: must be between -1e9 and 1e9, got 1e+308")
        #expect(Self.refusal("containers.main.header.max_height", .integer(2_000_000_000)) == "containers.main.header.max_height: must be between -1e9 and 1e9, got 2000000000")
        #expect(Self.refusal("physics.finger_scale", .double(-1e10)) == "physics.finger_scale: must be between -1e9 and 1e9, got -10000000000.0")
        #expect(Self.refusal("containers.main.rows.heights", .array([.double(1e9), .double(1e9)])) == nil)
    }

    @Test func aChainHoldsAtMost32Containers() throws {
        var configuration = Configuration()
        var parent = "main"
        for depth in 1..<Limits.chainDepth {
            try configuration.set("containers.c\(depth).parent", .string(parent))
            parent = "c\(depth)"
        }
        try configuration.checkNesting()
        try configuration.set("containers.deep.parent", .string(parent))
        #expect(throws: ConfigurationError(key: "containers.deep.parent", message: "nesting deeper than 32 containers (a chain of 33)")) {
            try configuration.checkNesting()
        }
        #expect(throws: ConfigurationError(key: "containers.deep.parent", message: "nesting deeper than 32 containers (a chain of 33)")) {
            try configuration.checkNesting(only: ["deep"])
        }
    }

    @Test func aCycleIsStillNamedFromTheContainerSet() throws {
        var configuration = Configuration()
        try configuration.set("containers.series.parent", .string("home"))
        try configuration.set("containers.home.parent", .string("series"))
        #expect(throws: ConfigurationError(key: "containers.home.parent", message: "nesting would make a cycle (home → series → home)")) {
            try configuration.checkNesting(only: ["home"])
        }
    }

    /// A message is one line whatever a client named (a name with a newline in it is escaped).
    @Test func namesInMessagesAreEscaped() throws {
        var configuration = Configuration()
        try configuration.set("containers.x.parent", .string("a\nb"))
        #expect(throws: ConfigurationError(key: "containers.x.parent", message: #"no container "a\nb" to nest in (parent names another container)"#)) {
            try configuration.checkNesting(only: ["x"])
        }
    }

    @Test func aFileHoldsAtMost1000Containers() throws {
        var configuration = Configuration()
        for index in 1..<Limits.containers { try configuration.set("containers.c\(index).axes", .string("both")) }
        #expect(configuration.containers.count == 1000)
        #expect(throws: ConfigurationError(key: "containers.more.axes", message: "too many containers: the daemon holds at most 1000")) {
            try configuration.set("containers.more.axes", .string("both"))
        }
    }

    /// A file's sections define containers as its keys do: the 1000th besides `main` is refused
    /// at its line, by `check-config` and at start as at a reload (a 100 000-container file is
    /// refused there, not parsed into a daemon of 100 001).
    @Test func aFileOfSectionsHoldsAtMost1000Containers() throws {
        let text = (1...Limits.containers).map { "[containers.c\($0)]\n" }.joined()
        #expect(throws: ConfigurationError(key: "containers.c1000", message: "too many containers: the daemon holds at most 1000", line: 1000, file: "many.toml")) {
            _ = try Configuration.parse(text, file: "many.toml")
        }
        let fits = try Configuration.parse((1..<Limits.containers).map { "[containers.c\($0)]\n" }.joined(), file: "fits.toml")
        #expect(fits.containers.count == 1000)
    }
}
