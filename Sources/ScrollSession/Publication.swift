import ScrollModel

/// One published state of one container: what a subscriber that takes every state receives,
/// live or in a replay.
public struct Publication: Sendable {
    /// The container's index in the session (it never changes while the container exists).
    public var container: Int
    /// One more than the container's previous publication's (docs/design.md §4).
    public var seq: Int
    public var state: ScrollState
    /// What produced it: input, a frame, the wheel timer — or a request (`.input` too: the
    /// engine's notion of "something applied at this instant").
    public var cause: ScrollEngine.Cause
    /// Whether the container was paused (its state says so, docs/design.md §19).
    public var paused: Bool
}
