import ScrollModel

/// An input device as a `devices` reply lists it.
public struct DeviceInfo: Hashable, Sendable {
    /// The id events of this device carry (stable while the daemon runs).
    public var id: Int
    public var name: String
    public var capabilities: DeviceCapabilities
    /// The device node, when the daemon knows it.
    public var path: String?
    /// The containers the device is bound to; nil when it feeds every container.
    public var containers: [String]?
    /// The names of the `[input.devices.NAME]` rules whose `match` the device's name contains,
    /// in file order; nil when not told.
    public var rules: [String]?
    /// Its effective natural scrolling and where it came from (`config`, `desktop:kde`, …,
    /// `default`; docs/design.md §23); nil when not told.
    public var naturalScrolling: DesktopInput.Sourced<Bool>?
    /// Its effective `speed` (the configuration's, else the desktop's scroll factor, else 1)
    /// and where it came from; nil when not told.
    public var speed: DesktopInput.Sourced<Double>?

    public init(id: Int, name: String, capabilities: DeviceCapabilities, path: String? = nil, containers: [String]? = nil, rules: [String]? = nil) {
        self.id = id
        self.name = name
        self.capabilities = capabilities
        self.path = path
        self.containers = containers
        self.rules = rules
    }
}
