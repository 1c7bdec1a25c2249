import ScrollModel

/// An `observation` line (docs/design.md §13), as a client reads it: which observation, the state
/// that changed its value, and the value before and after. Values stay JSON (`ProtocolValue`): a
/// client shows or compares them, and keys a newer daemon adds arrive unchanged.
public struct ObservationMessage: Hashable, Sendable {
    /// The observation's `id`, as the `observe` request named it.
    public var id: RequestID?
    public var container: String
    /// The observed key (`of`).
    public var of: String
    /// The `seq` and `t` (µs) of the state that produced `new`.
    public var seq: Int
    public var time: Timestamp
    /// The value last sent for this observation; nil in the first message.
    public var old: ProtocolValue?
    public var new: ProtocolValue

    public init(id: RequestID?, container: String, of: String, seq: Int, time: Timestamp, old: ProtocolValue?, new: ProtocolValue) {
        self.id = id
        self.container = container
        self.of = of
        self.seq = seq
        self.time = time
        self.old = old
        self.new = new
    }
}
