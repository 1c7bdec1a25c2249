import ScrollModel

/// One change of an observed value: the value before (nil in the first message) and after, and
/// the state that changed it.
public struct ObservedChange<Value: Hashable & Sendable>: Hashable, Sendable {
    /// The value this sequence delivered last; nil in its first message.
    public var old: Value?
    /// The value now.
    public var new: Value
    /// The `seq` of the state that produced `new`.
    public var seq: Int
    /// That state's time, µs.
    public var time: Timestamp
    /// Whether this is the first message after the client reconnected: `old` is then the last
    /// value this sequence had, `new` the value on the daemon it met again.
    public var resumed: Bool

    /// An observation from its fields.
    public init(old: Value?, new: Value, seq: Int, time: Timestamp, resumed: Bool = false) {
        self.old = old
        self.new = new
        self.seq = seq
        self.time = time
        self.resumed = resumed
    }
}
