import ScrollModel

/// A `state` line (docs/design.md §4) as a client receives it.
public struct StateLine: Hashable, Sendable {
    public var container: String
    /// Increases by one per published state of the container.
    public var seq: Int
    /// The id of the `get` this answers; nil for broadcasts.
    public var id: RequestID?
    public var state: ScrollState
    /// The line's `"paused":true` (docs/design.md §19): the container's input is withheld.
    public var paused: Bool

    public init(container: String, seq: Int, id: RequestID? = nil, state: ScrollState, paused: Bool = false) {
        self.container = container
        self.seq = seq
        self.id = id
        self.state = state
        self.paused = paused
    }
}
