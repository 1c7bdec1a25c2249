/// The frame grid of one motion (DESIGN §6): ticks at `anchor + round(k × 10⁶ / rate)` µs,
/// k = 1, 2, …, anchored when a container starts moving and dropped when it stops.
public struct FrameClock: Hashable, Sendable {
    public let anchor: Timestamp
    public let rate: Double
    public private(set) var index: Int = 1

    public init(anchor: Timestamp, rate: Double) {
        self.anchor = anchor
        self.rate = rate
    }

    @inlinable
    public var nextTick: Timestamp {
        anchor + Timestamp((Double(index) * 1_000_000 / rate).rounded())
    }

    public mutating func advance() { index += 1 }
}
