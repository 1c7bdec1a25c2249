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

    public init(id: Int, name: String, capabilities: DeviceCapabilities, path: String? = nil, containers: [String]? = nil) {
        self.id = id
        self.name = name
        self.capabilities = capabilities
        self.path = path
        self.containers = containers
    }
}
