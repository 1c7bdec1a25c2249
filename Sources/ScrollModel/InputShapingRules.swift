/// The `[input]` shaping keys and the `[input.devices.NAME]` rules, in file order
/// (docs/design.md §18): what the engine resolves each device's ``InputShaping`` from, by the
/// device's name.
public struct InputShapingRules: Hashable, Sendable {
    /// Some of the shaping keys: the ones a rule (or `[input]`) sets; nil leaves the value the
    /// rules before it gave.
    public struct Rule: Hashable, Sendable {
        /// A substring of the device name; nil matches every device (the `[input]` defaults),
        /// an empty string too.
        public var match: String?
        /// `speed`: both axes, unless `speed_x`/`speed_y` say otherwise.
        public var speed: Double?
        /// `speed_x`.
        public var speedX: Double?
        /// `speed_y`.
        public var speedY: Double?
        /// `wheel_acceleration` (≥ 1).
        public var wheelAcceleration: Double?
        /// `wheel_acceleration_window_ms`, ms.
        public var wheelAccelerationWindow: Double?
        /// `momentum`.
        public var momentum: Bool?
        /// `detent`.
        public var detent: Bool?
        /// `natural_scrolling`, which libinput applies: here only so that a desktop's natural
        /// scrolling yields to it (docs/design.md §23).
        public var naturalScrolling: Bool?

        /// A rule setting the keys given.
        public init(
            match: String? = nil, speed: Double? = nil, speedX: Double? = nil, speedY: Double? = nil,
            wheelAcceleration: Double? = nil, wheelAccelerationWindow: Double? = nil,
            momentum: Bool? = nil, detent: Bool? = nil, naturalScrolling: Bool? = nil
        ) {
            self.match = match
            self.speed = speed
            self.speedX = speedX
            self.speedY = speedY
            self.wheelAcceleration = wheelAcceleration
            self.wheelAccelerationWindow = wheelAccelerationWindow
            self.momentum = momentum
            self.detent = detent
            self.naturalScrolling = naturalScrolling
        }

        /// Whether the rule applies to a device called `name` (a device never announced has
        /// no name: only rules without a `match` apply to it).
        public func matches(_ name: String?) -> Bool {
            guard let match else { return true }
            guard let name else { return false }
            return match.isEmpty || name.contains(match)
        }

        /// `other`'s keys where it sets them, ours elsewhere (later rules win key by key).
        public func overlaid(by other: Rule) -> Rule {
            Rule(
                match: match,
                speed: other.speed ?? speed,
                speedX: other.speedX ?? speedX,
                speedY: other.speedY ?? speedY,
                wheelAcceleration: other.wheelAcceleration ?? wheelAcceleration,
                wheelAccelerationWindow: other.wheelAccelerationWindow ?? wheelAccelerationWindow,
                momentum: other.momentum ?? momentum,
                detent: other.detent ?? detent,
                naturalScrolling: other.naturalScrolling ?? naturalScrolling
            )
        }

        /// Whether the rule sets any shaping key.
        public var isEmpty: Bool {
            speed == nil && speedX == nil && speedY == nil && wheelAcceleration == nil
                && wheelAccelerationWindow == nil && momentum == nil && detent == nil && naturalScrolling == nil
        }
    }

    /// The rules in order: later ones override earlier ones key by key.
    public var rules: [Rule]
    /// The desktop's settings, beneath every rule (docs/design.md §23).
    public var desktop: DesktopInput

    /// Rules applied in order, over the desktop's settings; none shapes nothing.
    public init(_ rules: [Rule] = [], desktop: DesktopInput = DesktopInput()) {
        self.rules = rules
        self.desktop = desktop
    }

    /// The shaping of a device called `name` (nil: a device that was never announced), a
    /// touchpad or not (nil: neither): every matching rule in order, then the desktop's
    /// settings for keys none sets, then the defaults; `speed_x` and `speed_y` default to
    /// `speed`. Natural scrolling is the engine's only where the desktop decides it: the
    /// configuration's `natural_scrolling` is libinput's, already in the events.
    public func shaping(forDevice name: String?, touchpad: Bool? = nil) -> InputShaping {
        let merged = merged(forDevice: name)
        let speed = merged.speed ?? desktop.scrollFactor(forDevice: name, touchpad: touchpad)?.value ?? 1
        let natural = merged.naturalScrolling == nil && desktop.naturalScrolling(forDevice: name, touchpad: touchpad)?.value == true
        return InputShaping(
            speedX: merged.speedX ?? speed,
            speedY: merged.speedY ?? speed,
            wheelAcceleration: merged.wheelAcceleration ?? 1,
            wheelAccelerationWindow: merged.wheelAccelerationWindow ?? 100,
            momentum: merged.momentum ?? true,
            detent: merged.detent ?? false,
            natural: natural
        )
    }

    /// A device's natural scrolling and speed with where each came from (`config`, a
    /// desktop's source name, `default`), as `devices` shows them.
    public func effective(forDevice name: String, touchpad: Bool?) -> (naturalScrolling: DesktopInput.Sourced<Bool>, speed: DesktopInput.Sourced<Double>) {
        let merged = merged(forDevice: name)
        let natural = merged.naturalScrolling.map { DesktopInput.Sourced($0, source: "config") }
            ?? desktop.naturalScrolling(forDevice: name, touchpad: touchpad)
            ?? DesktopInput.Sourced(false, source: "default")
        let speed = merged.speed.map { DesktopInput.Sourced($0, source: "config") }
            ?? desktop.scrollFactor(forDevice: name, touchpad: touchpad)
            ?? DesktopInput.Sourced(1, source: "default")
        return (natural, speed)
    }

    private func merged(forDevice name: String?) -> Rule {
        var merged = Rule()
        for rule in rules where rule.matches(name) { merged = merged.overlaid(by: rule) }
        return merged
    }

    /// Whether neither a rule nor the desktop shapes anything.
    public var isEmpty: Bool { rules.allSatisfy(\.isEmpty) && desktop.rules.isEmpty }
}
