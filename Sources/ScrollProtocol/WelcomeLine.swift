/// The daemon's greeting on connect (docs/design.md §7, part two, §19).
public struct WelcomeLine: Hashable, Sendable {
    /// The protocol version (1).
    public var `protocol`: Int
    /// `scrolld VERSION`.
    public var server: String
    /// The containers at that moment.
    public var containers: [String]
    /// The extensions (docs/design.md §12–§19) the daemon implements (`"positions"`, `"observe"`,
    /// …); empty from a daemon before them.
    public var features: [String]
    /// A random id per start of the daemon: another one means a new daemon (nil before docs/design.md §19).
    public var instance: String?

    public init(protocol: Int, server: String, containers: [String], features: [String] = [], instance: String? = nil) {
        self.protocol = `protocol`
        self.server = server
        self.containers = containers
        self.features = features
        self.instance = instance
    }
}
