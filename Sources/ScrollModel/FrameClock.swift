/// The frame grid of one motion (DESIGN §6): ticks at `anchor + round(k × 10⁶ / rate)` µs,
/// k = 1, 2, …, anchored when a container starts moving and dropped when it stops.
public struct FrameClock: Hashable, Sendable {
    public let anchor: Timestamp
    public let rate: Double
    public private(set) var index: Int = 1
    /// Kept, not computed on each read: the engine asks for it several times per event.
    public private(set) var nextTick: Timestamp

    public init(anchor: Timestamp, rate: Double) {
        self.anchor = anchor
        self.rate = rate
        nextTick = Self.tick(1, anchor: anchor, rate: rate)
    }

    public mutating func advance() {
        index += 1
        nextTick = Self.tick(index, anchor: anchor, rate: rate)
    }

    static func tick(_ index: Int, anchor: Timestamp, rate: Double) -> Timestamp {
        anchor + Timestamp((Double(index) * 1_000_000 / rate).rounded())
    }
}
