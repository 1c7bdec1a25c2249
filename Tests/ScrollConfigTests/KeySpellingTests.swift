import Foundation
import ScrollConfig
import ScrollModel
import Testing

/// One spelling per key (docs/decisions.md, "One spelling per key"): the old spellings still
/// work and say which key to write instead; the canonical ones, and every key docs/design.md
/// names, say nothing.
@Suite("Key spellings: one per key, old ones deprecated")
struct KeySpellingTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Each old spelling, the key it now is, and a value for it.
    static let deprecated: [(old: String, new: String, value: ConfigValue)] = [
        ("container_size", "containerSize", .string("400x300")),
        ("content_size", "contentSize", .array([.integer(400), .integer(900)])),
        ("content_insets", "insets", .string("10,0,20,0")),
    ]

    // MARK: Old spellings

    @Test(arguments: 0..<deprecated.count)
    func anOldSpellingIsAcceptedWithAWarningThatNamesTheNewKey(_ index: Int) throws {
        let (old, new, value) = Self.deprecated[index]
        var written = Configuration()
        try written.set("containers.main.\(old)", value)
        var canonical = Configuration()
        try canonical.set("containers.main.\(new)", value)
        #expect(try written.resolve(container: "main") == canonical.resolve(container: "main"))
        let warning = "containers.main.\(old): deprecated spelling; use containers.main.\(new)"
        #expect(written.warnings == [warning])
        #expect(written.deprecations.map(\.key) == ["containers.main.\(old)"])
        #expect(canonical.warnings.isEmpty)
        // What the daemon asks for a `configure` request's key, without a configuration.
        #expect(KeySpelling.deprecationWarning(for: "containers.list.\(old)")?.description
            == "containers.list.\(old): deprecated spelling; use containers.list.\(new)")
        #expect(KeySpelling.canonical("containers.list.\(old)") == ("containers.list.\(new)", true))
    }

    @Test func theTableOfOldSpellingsIsTheOneDocumented() {
        #expect(KeySpelling.deprecatedContainerKeys.map { "\($0.spelling) → \($0.key)" }
            == Self.deprecated.map { "\($0.old) → \($0.new)" })
    }

    @Test func aFileSaysWhereAnOldSpellingIsWritten() throws {
        let config = try Configuration.parse(
            """
            [containers.main]
            axes = "both"
            container_size = "400x300"

            [containers.list]
            content_insets = [0, 0, 20, 0]
            """,
            file: "old.toml"
        )
        #expect(config.warnings == [
            "old.toml:3: containers.main.container_size: deprecated spelling; use containers.main.containerSize",
            "old.toml:6: containers.list.content_insets: deprecated spelling; use containers.list.insets",
        ])
        #expect(try config.resolve(container: "main").containerSize == Size(width: 400, height: 300))
        #expect(try config.resolve(container: "list").contentInsets == EdgeInsets(top: 0, leading: 0, bottom: 20, trailing: 0))
    }

    @Test func aBadValueUnderAnOldSpellingIsReportedUnderThatSpelling() {
        let error = failure("[containers.main]\naxes = \"both\"\ncontent_size = \"big\"\n", file: "old.toml")
        #expect(error?.description == "old.toml:3: containers.main.content_size: expected WIDTHxHEIGHT, got a string \"big\"")
    }

    @Test func aKeyIsReportedOnceAndGoesWithItsContainer() throws {
        var config = Configuration()
        for _ in 0..<3 { try config.set("containers.list.container_size", .string("10x10")) }
        try config.set("containers.main.content_size", .string("10x10"))
        #expect(config.deprecations.map(\.key) == ["containers.list.container_size", "containers.main.content_size"])
        config.removeContainer("list")
        #expect(config.deprecations.map(\.key) == ["containers.main.content_size"])
    }

    @Test func warningsListOldSpellingsThenRulesThatMatchNothing() throws {
        var config = Configuration()
        try config.set("input.devices.ball.speed", .double(2))
        try config.set("containers.main.content_size", .string("10x10"))
        #expect(config.warnings == [
            "containers.main.content_size: deprecated spelling; use containers.main.contentSize",
            "input.devices.ball has no `match`: it applies to no device",
        ])
    }

    // MARK: Canonical spellings

    /// A value each key takes, by its path below the section (`NAME` for a container's or a
    /// rule's name).
    static let samples: [String: ConfigValue] = {
        var samples: [String: ConfigValue] = [
            "daemon.socket": .string("/run/user/1000/scrolld/scrolld.sock"), "daemon.seat": .string("seat0"),
            "daemon.devices": .array([]), "daemon.ignore": .array([]), "daemon.frame_rate": .integer(120),
            "daemon.allow_uids": .array([.integer(1001)]), "daemon.realtime_priority": .integer(10),
            "daemon.record": .string("live.scrolllog"), "daemon.follow_session": .bool(true),
            "containers.NAME.containerSize": .string("800x600"), "containers.NAME.contentSize": .string("800x20000"),
            "containers.NAME.insets": .string("0,0,0,0"), "containers.NAME.contentInsets": .array([.integer(0), .integer(0), .integer(20), .integer(0)]),
            "containers.NAME.axes": .string("vertical"), "containers.NAME.scroll_target": .string("paging"),
            "containers.NAME.anchor": .string("bottom"), "containers.NAME.devices": .array([.string("Touchpad")]),
            "containers.NAME.parent": .string(""), "containers.NAME.overscroll": .string("contain"),
            "containers.NAME.header": .table([("max_height", .integer(120))]),
            "containers.NAME.rows": .table([("count", .integer(10)), ("height", .integer(44))]),
            "containers.NAME.physics": .table([("wheel_step", .integer(40))]),
            "containers.NAME.header.min_height": .integer(44), "containers.NAME.header.max_height": .integer(120),
            "containers.NAME.header.stretch": .bool(false), "containers.NAME.header.snap": .bool(false),
            "containers.NAME.rows.count": .integer(10), "containers.NAME.rows.height": .integer(44),
            "containers.NAME.rows.heights": .array([.integer(10), .integer(20)]), "containers.NAME.rows.top": .integer(0),
            "containers.NAME.rows.threshold": .double(0.5), "containers.NAME.rows.visible_in": .string("usable"),
            "input.devices.NAME.match": .string("Touchpad"),
        ]
        let physics: [String: ConfigValue] = [
            "profile": .string("gtk"), "wheel_step": .string("auto"), "wheel_animation": .string("none"),
            "wheel_duration": .double(0.2), "wheel_idle": .double(0.25), "finger_scale": .double(2.5),
            "rubber_band": .double(0.55), "overscroll": .bool(false), "momentum": .bool(false), "reduced_motion": .bool(true),
            "min_fling_velocity": .integer(50), "velocity_window": .double(0.15), "deceleration_rate": .double(0.998),
            "deceleration_end_distance": .double(0.5), "bounce_stiffness": .integer(100), "settle_distance": .double(0.5),
            "settle_velocity": .integer(10), "friction": .integer(4), "stop_velocity": .double(0.1),
            "drag_overshoot_limit": .integer(100), "fling_overshoot_limit": .integer(50), "touch_slop": .integer(8),
        ]
        for (key, value) in physics {
            samples["physics.\(key)"] = value
            samples["containers.NAME.physics.\(key)"] = value
        }
        let input: [String: ConfigValue] = [
            "natural_scrolling": .bool(true), "scroll_method": .string("two-finger"), "scroll_button": .integer(274),
            "scroll_button_lock": .bool(true), "speed": .double(1.5), "speed_x": .double(2), "speed_y": .double(0.5),
            "wheel_acceleration": .integer(2), "wheel_acceleration_window_ms": .integer(100), "momentum": .bool(false),
            "detent": .bool(true),
        ]
        for (key, value) in input {
            samples["input.\(key)"] = value
            samples["input.devices.NAME.\(key)"] = value
        }
        return samples
    }()

    /// Sets `key` (a sample's path, `NAME` filled in) on the built-in defaults.
    func setting(_ key: String) throws(ConfigurationError) -> Configuration {
        var config = Configuration()
        // A rule without `match` applies to nothing, which is a warning of its own.
        if key.hasPrefix("input.devices.") { try config.set("input.devices.list.match", .string("Touchpad")) }
        try config.set(key.replacingOccurrences(of: "NAME", with: "list"), Self.samples[key]!)
        return config
    }

    @Test func everyKeyTheConfigurationTakesIsGivenASampleHere() {
        let keys = Set(Self.samples.keys)
        for key in ScrollPhysics.keys { #expect(keys.contains("physics.\(key)"), "\(key)") }
        for key in InputSettings.keys { #expect(keys.contains("input.devices.NAME.\(key)"), "\(key)") }
    }

    @Test func aCanonicalSpellingSaysNothing() throws {
        for key in Self.samples.keys.sorted() {
            let config = try setting(key)
            #expect(config.deprecations.isEmpty, "\(key)")
            #expect(KeySpelling.deprecationWarning(for: key) == nil, "\(key)")
        }
    }

    /// The shipped file and the examples use only canonical spellings.
    @Test func theRepositorysConfigurationFilesWarnNothing() throws {
        let examples = try FileManager.default.contentsOfDirectory(atPath: Self.root.appendingPathComponent("examples").path)
            .filter { $0.hasSuffix(".toml") }.map { "examples/\($0)" }
        #expect(examples.count >= 5)
        for file in ["config/scrolld.toml"] + examples {
            let config = try Configuration.load(contentsOf: Self.root.appendingPathComponent(file).path)
            #expect(config.deprecations.isEmpty, "\(file): \(config.warnings)")
        }
    }

    // MARK: The keys docs/design.md names

    /// The keys docs/design.md's contract sections write, in the configuration file's terms:
    /// §5 (physics, header, rows, scroll targets), §6, §7 (`configure`), §8, §12, §14, §15,
    /// §17, §18 and §19.
    static let designKeys = [
        "physics.profile", "physics.wheel_step", "physics.wheel_animation", "physics.wheel_duration",
        "physics.wheel_idle", "physics.finger_scale", "physics.rubber_band", "physics.overscroll",
        "physics.min_fling_velocity", "physics.deceleration_rate", "physics.bounce_stiffness", "physics.friction",
        "containers.NAME.header.min_height", "containers.NAME.header.max_height", "containers.NAME.header.stretch",
        "containers.NAME.header.snap", "containers.NAME.scroll_target", "containers.NAME.rows.count",
        "containers.NAME.rows.height", "containers.NAME.rows.heights", "containers.NAME.rows.top",
        "containers.NAME.rows.threshold", "daemon.frame_rate",
        "containers.NAME.containerSize", "containers.NAME.contentSize", "containers.NAME.contentInsets",
        "containers.NAME.axes", "containers.NAME.header", "containers.NAME.rows", "containers.NAME.physics",
        "daemon.socket", "daemon.seat", "daemon.devices", "daemon.ignore", "daemon.allow_uids",
        "containers.NAME.insets", "containers.NAME.devices", "containers.NAME.anchor", "containers.NAME.parent",
        "containers.NAME.overscroll", "daemon.follow_session", "daemon.record", "input.devices.NAME.match",
        "input.devices.NAME.speed", "input.devices.NAME.speed_x", "input.devices.NAME.speed_y",
        "input.devices.NAME.wheel_acceleration", "input.devices.NAME.wheel_acceleration_window_ms",
        "input.devices.NAME.momentum", "input.devices.NAME.detent", "input.devices.NAME.scroll_button_lock",
        "containers.NAME.rows.visible_in",
    ]

    @Test func everyKeyTheDesignNamesIsSetWithoutAWarning() throws {
        for key in Self.designKeys {
            let config = try setting(key)
            #expect(config.warnings.isEmpty, "\(key): \(config.warnings)")
        }
    }

    /// The same, read out of docs/design.md itself: the keys §8 lists per section, the
    /// `configure` fields of §7, every "key `…`" of §5–§8 and §12–§19, §18's table, and every
    /// snake_case name written there that is not one of the notations, error codes, event types
    /// or libinput calls below. Each must be a key somewhere and say nothing.
    @Test func everyKeyReadOutOfTheDesignDocumentIsSetWithoutAWarning() throws {
        let names = try Self.namesInDesign()
        #expect(names.count >= 40, "\(names.sorted())")
        let notKeys: Set = [
            "a_lo", "a_hi", "h_i", "r_i", "bad_request", "unknown_op", "unknown_container", "invalid_value",
            "too_large", "forbidden", "device_added", "hold_begin", "hold_end", "libinput_suspend", "libinput_resume",
            // configure's request fields that are not container keys (§7, §19)
            "owned", "animation",
        ]
        // A configure request's camelCase field, as the protocol hands it to the configuration.
        let wire = ["scrollTarget": "scroll_target"]
        for name in names.sorted() where !notKeys.contains(name) {
            let key = wire[name] ?? name
            let places = Self.samples.keys.filter { $0 == key || $0.hasSuffix(".\(key)") }.sorted()
            #expect(!places.isEmpty, "docs/design.md names `\(name)`, which is no configuration key")
            for place in places {
                let config = try setting(place)
                #expect(config.warnings.isEmpty, "\(place): \(config.warnings)")
            }
        }
    }

    static func namesInDesign() throws -> Set<String> {
        let text = try String(contentsOf: root.appendingPathComponent("docs/design.md"), encoding: .utf8)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        func section(_ start: String, until end: String) -> String {
            let from = lines.firstIndex { $0.hasPrefix(start) } ?? lines.endIndex
            let to = lines[from...].dropFirst().firstIndex { $0.hasPrefix(end) } ?? lines.endIndex
            return lines[from..<to].joined(separator: "\n")
        }
        let contract = section("## 5.", until: "## 9.") + "\n" + section("## 12.", until: "## Limits")
        var names = Set<String>()
        func ticked(_ text: Substring) -> [String] {
            text.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 1 }.map { String($0.element) }
        }
        func isName(_ s: String) -> Bool {
            !s.isEmpty && s.allSatisfy { $0.isLetter || $0 == "_" || $0 == "." } && s.first!.isLowercase
        }
        // snake_case names anywhere in the contract sections
        for name in ticked(contract[...]) where isName(name) && name.contains("_") { names.insert(name) }
        // "key `anchor`", "keys `…`", "Container key `rows.visible_in`"
        for part in contract.components(separatedBy: "key `").dropFirst() {
            if let name = part.split(separator: "`").first.map(String.init), isName(name) {
                names.insert(name.split(separator: ".").last.map(String.init) ?? name)
            }
        }
        // §8: "`[daemon]` (`socket`, `seat`, …)" and the other sections' lists
        let configuration = section("## 8.", until: "## 9.")
        for part in configuration.components(separatedBy: "]` (").dropFirst() {
            for name in ticked(part.prefix { $0 != ")" }) where isName(name) { names.insert(name) }
        }
        // §7: the configure row of the ops table
        if let row = section("## 7.", until: "## 8.").split(separator: "\n").first(where: { $0.hasPrefix("| `configure` |") }) {
            let fields = row.split(separator: "|")[1]
            for name in ticked(fields) where isName(name) && name != "container" { names.insert(name) }
        }
        // §18: the table's first column
        for row in section("## 18.", until: "## 19.").split(separator: "\n") where row.hasPrefix("| `") {
            for name in ticked(row.split(separator: "|")[0]) where isName(name) { names.insert(name) }
        }
        return names
    }
}
