import ScrollModel

/// The whole configuration of docs/design.md §8: daemon settings, global physics, and containers.
///
/// Values are kept as assignments until `resolve` so that a `profile` chosen anywhere sets the
/// defaults first and every explicitly set constant then wins over it, whatever their order.
public struct Configuration: Sendable {
    public var daemon = DaemonSettings()
    /// `[web]`: the WebSocket listener for browsers (off by default).
    public var web = WebSettings()
    /// `[input]`: libinput settings for the devices.
    public internal(set) var input = InputSettings()
    /// `[physics]` assignments, in order.
    public internal(set) var physics: [(key: String, value: SettingValue)] = []
    /// The containers, in the order they were defined. They come and go through
    /// ``index(ofContainer:creatingAt:)``, ``appendContainer(_:)`` and ``removeContainer(_:)``
    /// only, which keep ``positions``; a container's settings may change in place.
    public internal(set) var containers: [ContainerSettings] = [ContainerSettings(name: "main")]
    /// Where each container is in ``containers``, by name: every key of a file finds its
    /// container at once; a walk along the containers for each key (copying each one it passed)
    /// would make loading a file quadratic in its containers (docs/performance.md).
    private var positions: [String: Int] = ["main": 0]
    /// The keys `set` was given in a deprecated spelling (``KeySpelling``), each once, in the
    /// order met; a file's carry their file and line. Those of a container go with it when it
    /// is removed, so however many requests a daemon applies the list stays bounded.
    public internal(set) var deprecations: [ConfigurationWarning] = []
    /// The desktop's settings in force beneath the keys (docs/design.md §23); nil: whichever
    /// the session has (a configuration file says nothing about the desktop, so a reload of
    /// it keeps them), and a recording's reload line says which.
    public var desktop: DesktopInput?

    public init() {}

    /// What the configuration accepts but its author should change, one line each: keys in a
    /// deprecated spelling (``deprecations``), then what applies to nothing
    /// (``InputSettings/warnings``, ``WebSettings/warnings``). `check-config` prints them; what the daemon logs at start
    /// and at every reload (`ConfigurationFileSource.logWarnings`) are these.
    public var warnings: [String] {
        deprecations.map(\.description) + input.warnings + web.warnings
    }

    /// The built-in defaults: one container `main`, 800×600, content 800×20000, vertical.
    public static let defaults = Configuration()

    public func container(named name: String) -> ContainerSettings? {
        index(ofContainer: name).map { containers[$0] }
    }

    /// Where container `name` is in ``containers``.
    func index(ofContainer name: String) -> Int? {
        positions[name]
    }

    /// Where container `name` is in ``containers``, made with the built-in settings first when
    /// there is none, refused at `key` (the key that would make it) when that would be one more
    /// than ``Limits/containers``: a file is refused at the line of the 1001st.
    mutating func index(ofContainer name: String, creatingAt key: String) throws(ConfigurationError) -> Int {
        if let index = positions[name] { return index }
        guard containers.count < Limits.containers else { throw Self.tooManyContainers(key: key) }
        return appendContainer(ContainerSettings(name: name))
    }

    /// Adds `settings`, a container this configuration does not have, after the others; where it is.
    @discardableResult
    mutating func appendContainer(_ settings: ContainerSettings) -> Int {
        positions[settings.name] = containers.count
        containers.append(settings)
        return containers.count - 1
    }

    /// Assigns `value` to a dotted key such as `physics.wheel_animation`,
    /// `containers.main.header.min_height` or `daemon.frame_rate`. A key in a deprecated
    /// spelling (`containers.main.container_size`) is applied as its canonical key and
    /// recorded in ``deprecations``; errors name the key as written.
    public mutating func set(_ key: String, _ value: SettingValue) throws(ConfigurationError) {
        let written = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard written.count >= 2, !written.contains(where: \.isEmpty) else {
            throw ConfigurationError(key: key, message: "expected SECTION.KEY (daemon.*, web.*, physics.*, input.*, containers.NAME.*)")
        }
        let (parts, deprecated) = KeySpelling.canonical(written)
        switch parts[0] {
        case "daemon" where parts.count == 2:
            try daemon.set(parts[1], value, key: key)
        case "web" where parts.count == 2:
            try web.set(parts[1], value, key: key)
        case "physics" where parts.count == 2:
            try ScrollPhysics.validate(parts[1], value, key: key)
            physics.removeAll { $0.key == parts[1] }
            physics.append((parts[1], value))
        case "input":
            try input.set(Array(parts[1...]), value, key: key)
        case "containers" where parts.count >= 3:
            let index = try self.index(ofContainer: parts[1], creatingAt: key)
            try containers[index].set(Array(parts[2...]), value, key: key)
            if deprecated, !deprecations.contains(where: { $0.key == key }) {
                deprecations.append(ConfigurationWarning(deprecated: key, canonical: parts.joined(separator: ".")))
            }
        default:
            throw ConfigurationError(key: key, message: "unknown key (sections: daemon, web, physics, input, containers.NAME)")
        }
    }

    /// The error of a configuration that would define one container more than the daemon holds
    /// (``Limits/containers``), at the key that would: a file is refused at its line.
    private static func tooManyContainers(key: String) -> ConfigurationError {
        ConfigurationError(key: key, message: "too many containers: the daemon holds at most \(Limits.containers)")
    }

    /// Forgets container `name` (a `remove` request).
    public mutating func removeContainer(_ name: String) {
        // One by position: `removeAll(where:)` copies each setting it keeps past a removed one,
        // and a connection that owned a thousand containers removes them one by one.
        if let index = positions.removeValue(forKey: name) {
            containers.remove(at: index)
            for later in index..<containers.count { positions[containers[later].name] = later }
        }
        let prefix = "containers.\(name)."
        deprecations.removeAll { $0.key.hasPrefix(prefix) }
    }

    /// Defines container `name` with the built-in settings unless it exists (a `configure`
    /// that names no key creates a container all the same).
    public mutating func defineContainer(_ name: String) {
        if positions[name] == nil { appendContainer(ContainerSettings(name: name)) }
    }

    /// Adds the containers of `other` that this configuration does not define (a reload keeps
    /// the containers clients created, with their settings).
    public mutating func keepContainers(from other: Configuration) {
        for settings in other.containers where positions[settings.name] == nil {
            appendContainer(settings)
        }
    }

    /// The physics for a container: its profile's defaults, the global constants, then its own.
    public func resolvePhysics(for container: ContainerSettings? = nil) throws(ConfigurationError) -> ScrollPhysics {
        let assignments = physics + (container?.physics ?? [])
        var profile = ScrollPhysics.Profile.ios
        for (key, value) in assignments where key == "profile" {
            profile = try ScrollPhysics.profile(value, key: "physics.profile")
        }
        var result = ScrollPhysics(profile: profile)
        // The desktop's reduced motion, beneath every key.
        result.reducedMotion = desktop?.reducedMotion?.value ?? false
        for (key, value) in assignments where key != "profile" {
            try result.set(key, value, key: "physics.\(key)")
        }
        return result
    }

    /// The engine's shaping rules: `[input]`'s over the desktop's settings.
    public var shapingRules: InputShapingRules {
        var rules = input.shapingRules
        rules.desktop = desktop ?? DesktopInput()
        return rules
    }

    /// The effective reduced motion and where it came from (docs/design.md §23): `[physics]
    /// reduced_motion`, else the desktop's, else off.
    public var reducedMotion: DesktopInput.Sourced<Bool> {
        if let value = physics.last(where: { $0.key == "reduced_motion" })?.value, case .bool(let on) = value {
            return DesktopInput.Sourced(on, source: "config")
        }
        return desktop?.reducedMotion ?? DesktopInput.Sourced(false, source: "default")
    }

    /// The model's configuration of one container.
    public func resolve(container name: String) throws(ConfigurationError) -> ContainerConfiguration {
        guard let settings = container(named: name) else {
            throw ConfigurationError(key: "containers.\(name)", message: "no such container")
        }
        return try settings.resolve(physics: resolvePhysics(for: settings))
    }
}
