/// A container's identity for as long as it exists: given by the engine when the container is
/// added and never reused, whatever is added or removed after it. Positions in the engine's
/// list shift when a container before them goes; an identity does not, so everything kept about
/// a container outside the model (its subscribers, its publishing batch) is keyed by it.
public struct ContainerID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The engine's count of containers added before this one.
    public let rawValue: Int

    /// The identity numbered `rawValue` (the engine numbers them from 0 in the order added).
    public init(rawValue: Int) {
        self.rawValue = rawValue
    }

    /// Earlier-added containers come first.
    public static func < (lhs: ContainerID, rhs: ContainerID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#N`, as logs write it.
    public var description: String { "#\(rawValue)" }
}
