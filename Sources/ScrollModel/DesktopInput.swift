/// What the user's desktop says about scrolling, as the engine applies it (docs/design.md §23):
/// natural scrolling and a scroll factor per class of device or per device, and reduced
/// motion. It lies beneath every key of scrolld's own configuration: a key the configuration
/// sets for a device wins over it.
///
/// The engine resolves it from what the event log carries of a device, its name and its
/// capabilities (a touchpad sends finger scrolling), so `replay` and `run --replay` apply it
/// exactly as the live daemon did.
public struct DesktopInput: Hashable, Sendable {
    /// The devices a rule applies to.
    public enum Devices: Hashable, Sendable {
        /// Every touchpad: a device with finger scrolling.
        case touchpads
        /// Every other pointer that scrolls (a wheel, button scrolling).
        case mice
        /// The device with exactly this name (libinput's).
        case named(String)
    }

    /// One desktop's setting for some devices; nil leaves the key to other rules.
    public struct Rule: Hashable, Sendable {
        /// The devices it applies to.
        public var devices: Devices
        /// Natural scrolling: the engine reverses the device's deltas on both axes.
        public var naturalScrolling: Bool?
        /// Multiplied into the device's `speed` (finite, > 0).
        public var scrollFactor: Double?
        /// Where it came from, as `devices` shows it (`desktop:kde`).
        public var source: String

        /// A rule for `devices` from `source`.
        public init(devices: Devices, naturalScrolling: Bool? = nil, scrollFactor: Double? = nil, source: String) {
            self.devices = devices
            self.naturalScrolling = naturalScrolling
            self.scrollFactor = scrollFactor
            self.source = source
        }

        /// Whether the rule applies to a device called `name` (nil: never announced) that is
        /// a touchpad or not (nil: neither, e.g. a touchscreen).
        public func matches(name: String?, touchpad: Bool?) -> Bool {
            switch devices {
            case .touchpads: return touchpad == true
            case .mice: return touchpad == false
            case .named(let wanted): return name == wanted
            }
        }
    }

    /// A value and where it came from (`config`, `desktop:kde`, `default`).
    public struct Sourced<Value: Hashable & Sendable>: Hashable, Sendable {
        /// The value in force.
        public var value: Value
        /// `config`, a desktop's source name (`desktop:kde`) or `default`.
        public var source: String

        /// `value`, from `source`.
        public init(_ value: Value, source: String) {
            self.value = value
            self.source = source
        }
    }

    /// The rules; for a device, a rule naming it beats a class rule, and among rules of the
    /// same kind the later one wins.
    public var rules: [Rule]
    /// Animations turned off; nil: no desktop says.
    public var reducedMotion: Sourced<Bool>?

    /// Settings; none changes nothing.
    public init(rules: [Rule] = [], reducedMotion: Sourced<Bool>? = nil) {
        self.rules = rules
        self.reducedMotion = reducedMotion
    }

    /// Whether no desktop says anything.
    public var isEmpty: Bool { rules.isEmpty && reducedMotion == nil }

    /// The class of a device with `capabilities`: true a touchpad, false another pointer that
    /// scrolls, nil neither.
    public static func isTouchpad(_ capabilities: DeviceCapabilities) -> Bool? {
        if capabilities.contains(.finger) { return true }
        if !capabilities.isDisjoint(with: [.wheel, .continuous]) { return false }
        return nil
    }

    /// The desktop's natural scrolling for a device, nil when no rule says.
    public func naturalScrolling(forDevice name: String?, touchpad: Bool?) -> Sourced<Bool>? {
        lookup(name: name, touchpad: touchpad) { rule in rule.naturalScrolling.map { Sourced($0, source: rule.source) } }
    }

    /// The desktop's scroll factor for a device, nil when no rule says.
    public func scrollFactor(forDevice name: String?, touchpad: Bool?) -> Sourced<Double>? {
        lookup(name: name, touchpad: touchpad) { rule in rule.scrollFactor.map { Sourced($0, source: rule.source) } }
    }

    /// The last rule naming the device that says, else the last class rule that says.
    private func lookup<Value>(name: String?, touchpad: Bool?, _ value: (Rule) -> Value?) -> Value? {
        var named: Value?
        var byClass: Value?
        for rule in rules where rule.matches(name: name, touchpad: touchpad) {
            guard let found = value(rule) else { continue }
            if case .named = rule.devices { named = found } else { byClass = found }
        }
        return named ?? byClass
    }
}
