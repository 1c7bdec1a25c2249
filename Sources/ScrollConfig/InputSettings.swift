/// `[input]`: the libinput device settings a desktop would otherwise set. A daemon's own
/// libinput context does not inherit the desktop's choices (natural scrolling, the scroll
/// method, the button that scrolls a trackpoint), so they are configured here: defaults for
/// every device, then named rules (`[input.devices.NAME]`) for the devices whose name contains
/// the rule's `match`, applied in file order.
public struct InputSettings: Hashable, Sendable {
    public enum ScrollMethod: String, Hashable, Sendable, CaseIterable {
        case twoFinger = "two-finger"
        case edge
        case button
        case none
    }

    /// One set of settings; nil leaves libinput's default for the device.
    public struct Device: Hashable, Sendable {
        public var naturalScrolling: Bool?
        public var scrollMethod: ScrollMethod?
        /// An evdev button code (BTN_MIDDLE is 274) for `scroll_method = "button"`.
        public var scrollButton: UInt32?

        public init(naturalScrolling: Bool? = nil, scrollMethod: ScrollMethod? = nil, scrollButton: UInt32? = nil) {
            self.naturalScrolling = naturalScrolling
            self.scrollMethod = scrollMethod
            self.scrollButton = scrollButton
        }

        /// `other`'s settings where it has them, ours elsewhere.
        func overlaid(by other: Device) -> Device {
            Device(
                naturalScrolling: other.naturalScrolling ?? naturalScrolling,
                scrollMethod: other.scrollMethod ?? scrollMethod,
                scrollButton: other.scrollButton ?? scrollButton
            )
        }
    }

    public struct Rule: Hashable, Sendable {
        public var name: String
        /// A substring of the device name; a rule without one matches nothing.
        public var match: String?
        public var settings = Device()
    }

    public var defaults = Device()
    public var rules: [Rule] = []

    public init() {}

    public static let keys = ["natural_scrolling", "scroll_method", "scroll_button"]

    /// The settings for a device: the defaults, then every matching rule in order.
    public func settings(forDevice name: String) -> Device {
        rules.reduce(defaults) { settings, rule in
            guard let match = rule.match, name.contains(match) else { return settings }
            return settings.overlaid(by: rule.settings)
        }
    }

    mutating func set(_ path: [String], _ value: ConfigValue, key: String) throws(ConfigurationError) {
        switch (path.count, path.first) {
        case (1, _):
            try Self.set(path[0], value, key: key, on: &defaults)
        case (3, "devices"):
            let name = path[1]
            if !rules.contains(where: { $0.name == name }) { rules.append(Rule(name: name)) }
            let index = rules.firstIndex { $0.name == name }!
            if path[2] == "match" {
                rules[index].match = try value.string(key)
            } else {
                try Self.set(path[2], value, key: key, on: &rules[index].settings)
            }
        default:
            throw ConfigurationError(key: key, message: "unknown input key (\(Self.keys.joined(separator: ", ")), devices.NAME.match)")
        }
    }

    static func set(_ name: String, _ value: ConfigValue, key: String, on settings: inout Device) throws(ConfigurationError) {
        switch name {
        case "natural_scrolling": settings.naturalScrolling = try value.bool(key)
        case "scroll_method": settings.scrollMethod = try value.choice(key, ScrollMethod.self)
        case "scroll_button":
            guard case .integer(let code) = value, code > 0, code <= 0x2ff else {
                throw ConfigurationError(key: key, message: "expected an evdev button code (e.g. 274 for BTN_MIDDLE), got \(value.description)")
            }
            settings.scrollButton = UInt32(code)
        default:
            throw ConfigurationError(key: key, message: "unknown input key (\(keys.joined(separator: ", ")), devices.NAME.match)")
        }
    }
}
