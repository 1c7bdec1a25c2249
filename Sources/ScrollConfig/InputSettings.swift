import TOML
import ScrollModel

/// `[input]`: the libinput device settings a desktop would otherwise set, and scrolld's own
/// shaping of each device's input (docs/design.md §18). A daemon's own libinput context does not
/// inherit the desktop's choices (natural scrolling, the scroll method, the button that scrolls
/// a trackpoint), so they are configured here: defaults for every device, then named rules
/// (`[input.devices.NAME]`) for the devices whose name contains the rule's `match`, applied in
/// file order, later rules overriding earlier ones key by key.
public struct InputSettings: Hashable, Sendable {
    public enum ScrollMethod: String, Hashable, Sendable, CaseIterable {
        case twoFinger = "two-finger"
        case edge
        case button
        case none
    }

    /// One set of settings; nil leaves the value from before (the defaults: libinput's for the
    /// libinput keys, no shaping for the others).
    public struct Device: Hashable, Sendable {
        public var naturalScrolling: Bool?
        public var scrollMethod: ScrollMethod?
        /// An evdev button code (BTN_MIDDLE is 274) for `scroll_method = "button"`.
        public var scrollButton: UInt32?
        /// libinput's scroll button lock: a click of the scroll button toggles button scrolling.
        public var scrollButtonLock: Bool?
        /// The shaping keys (`speed`, `speed_x`, `speed_y`, `wheel_acceleration`,
        /// `wheel_acceleration_window_ms`, `momentum`, `detent`); its `match` is unused here.
        public var shaping = InputShapingRules.Rule()

        public init(naturalScrolling: Bool? = nil, scrollMethod: ScrollMethod? = nil, scrollButton: UInt32? = nil, scrollButtonLock: Bool? = nil) {
            self.naturalScrolling = naturalScrolling
            self.scrollMethod = scrollMethod
            self.scrollButton = scrollButton
            self.scrollButtonLock = scrollButtonLock
        }

        /// `other`'s settings where it has them, ours elsewhere.
        func overlaid(by other: Device) -> Device {
            var result = Device(
                naturalScrolling: other.naturalScrolling ?? naturalScrolling,
                scrollMethod: other.scrollMethod ?? scrollMethod,
                scrollButton: other.scrollButton ?? scrollButton,
                scrollButtonLock: other.scrollButtonLock ?? scrollButtonLock
            )
            result.shaping = shaping.overlaid(by: other.shaping)
            return result
        }
    }

    public struct Rule: Hashable, Sendable {
        public var name: String
        /// A substring of the device name; a rule without one matches nothing.
        public var match: String?
        public var settings = Device()
    }

    public var defaults = Device()
    /// In file order; added to by `set` only, which keeps ``ruleIndex``.
    public private(set) var rules: [Rule] = []
    /// Where each rule is in ``rules``, by name: every key finds its rule at once (a walk along
    /// the rules for each key would make loading quadratic in the rules).
    private var ruleIndex: [String: Int] = [:]
    /// `[input] touchscreens`: whether touchscreens are opened (docs/design.md §25; default
    /// true). Read when the devices are opened (start-up, `scrolld devices`, `scrolld record`).
    public var touchscreens = true
    /// `[input] follow_desktop`: whether scrolld reads the user's desktop settings for
    /// scrolling and follows their changes (docs/design.md §23; default true). Read at start:
    /// it decides which watchers run.
    public var followDesktop = true

    public init() {}

    /// The libinput keys.
    public static let libinputKeys = ["natural_scrolling", "scroll_method", "scroll_button", "scroll_button_lock"]
    /// The shaping keys (docs/design.md §18), applied by the engine.
    public static let shapingKeys = [
        "speed", "speed_x", "speed_y", "wheel_acceleration", "wheel_acceleration_window_ms", "momentum", "detent",
    ]
    public static let keys = libinputKeys + shapingKeys

    /// The settings for a device: the defaults, then every matching rule in order.
    public func settings(forDevice name: String) -> Device {
        rules.reduce(defaults) { settings, rule in
            guard let match = rule.match, name.contains(match) else { return settings }
            return settings.overlaid(by: rule.settings)
        }
    }

    /// The names of the rules that match a device, in order (`scrolld devices` shows them).
    public func ruleNames(forDevice name: String) -> [String] {
        rules.filter { rule in rule.match.map { name.contains($0) } ?? false }.map(\.name)
    }

    /// What is valid but almost certainly not what the user meant: a rule without `match`
    /// applies to no device (a `match` added later by `--set` or a reload is the one use of
    /// such a rule, so it is not an error). `check-config` prints these; the daemon logs them.
    /// The rule's name is written as a key is, so a long or odd one stays short and printable.
    public var warnings: [String] {
        rules.filter { $0.match == nil }.map { "\(TOMLKey.written(["input", "devices", $0.name])) has no `match`: it applies to no device" }
    }

    /// The shaping keys as the engine resolves them per device: the `[input]` defaults (a rule
    /// matching every device), then each rule with a `match`, in file order.
    public var shapingRules: InputShapingRules {
        var first = defaults.shaping
        first.naturalScrolling = defaults.naturalScrolling
        var result = [first]
        for rule in rules {
            guard let match = rule.match else { continue }
            var shaping = rule.settings.shaping
            shaping.match = match
            // Not the engine's to apply, but a desktop's natural scrolling yields to it.
            shaping.naturalScrolling = rule.settings.naturalScrolling
            result.append(shaping)
        }
        return InputShapingRules(result.filter { !$0.isEmpty })
    }

    mutating func set(_ path: [String], _ value: SettingValue, key: String) throws(ConfigurationError) {
        switch (path.count, path.first) {
        case (1, "touchscreens"):
            touchscreens = try value.bool(key)
        case (1, "follow_desktop"):
            followDesktop = try value.bool(key)
        case (1, _):
            try Self.set(path[0], value, key: key, on: &defaults)
        case (3, "devices"):
            let name = path[1]
            let index = ruleIndex[name] ?? {
                rules.append(Rule(name: name))
                ruleIndex[name] = rules.count - 1
                return rules.count - 1
            }()
            if path[2] == "match" {
                rules[index].match = try value.string(key)
            } else {
                try Self.set(path[2], value, key: key, on: &rules[index].settings)
            }
        default:
            throw ConfigurationError(key: key, message: "unknown input key (touchscreens, follow_desktop, \(Self.keys.joined(separator: ", ")), devices.NAME.match)")
        }
    }

    static func set(_ name: String, _ value: SettingValue, key: String, on settings: inout Device) throws(ConfigurationError) {
        switch name {
        case "natural_scrolling": settings.naturalScrolling = try value.bool(key)
        case "scroll_method": settings.scrollMethod = try value.choice(key, ScrollMethod.self)
        case "scroll_button":
            guard case .integer(let code) = value, code > 0, code <= 0x2ff else {
                throw ConfigurationError(key: key, message: "expected an evdev button code (e.g. 274 for BTN_MIDDLE), got \(value.rendered)")
            }
            settings.scrollButton = UInt32(code)
        case "scroll_button_lock": settings.scrollButtonLock = try value.bool(key)
        case "speed": settings.shaping.speed = try value.positive(key)
        case "speed_x": settings.shaping.speedX = try value.positive(key)
        case "speed_y": settings.shaping.speedY = try value.positive(key)
        case "wheel_acceleration":
            let factor = try value.number(key)
            guard factor >= 1 else {
                throw ConfigurationError(key: key, message: "must be at least 1 (1 turns acceleration off), got \(value.rendered)")
            }
            settings.shaping.wheelAcceleration = factor
        case "wheel_acceleration_window_ms": settings.shaping.wheelAccelerationWindow = try value.positive(key)
        case "momentum": settings.shaping.momentum = try value.bool(key)
        case "detent": settings.shaping.detent = try value.bool(key)
        default:
            throw ConfigurationError(key: key, message: "unknown input key (\(keys.joined(separator: ", ")), devices.NAME.match)")
        }
    }
}
