/// The frame grid of one motion (docs/design.md §6): ticks at `anchor + round(k × 10⁶ / rate)` µs,
/// k = 1, 2, …, anchored when a container starts moving and dropped when it stops.
public struct FrameClock: Hashable, Sendable {
    /// µs: the time the container started to move (tick 0, which is not itself a frame).
    public let anchor: Timestamp
    /// Frames per second (`frame_rate`, default 120), fixed for this grid.
    public let rate: Double
    /// `k` of ``nextTick``: 1 for the first frame after the anchor.
    public private(set) var index: Int = 1
    /// µs: the frame at ``index``, `anchor + round(index × 10⁶ / rate)`.
    /// Kept, not computed on each read: the engine asks for it several times per event.
    public private(set) var nextTick: Timestamp

    /// A grid anchored at `anchor` µs, ticking `rate` times per second (> 0): at 120 Hz from
    /// 0 the ticks are 8333, 16667, 25000, … µs.
    public init(anchor: Timestamp, rate: Double) {
        self.anchor = anchor
        self.rate = rate
        nextTick = Self.tick(1, anchor: anchor, rate: rate)
    }

    /// Moves to the next tick, after the engine has run the frame at ``nextTick``.
    public mutating func advance() {
        index += 1
        nextTick = Self.tick(index, anchor: anchor, rate: rate)
    }

    static func tick(_ index: Int, anchor: Timestamp, rate: Double) -> Timestamp {
        anchor + Timestamp((Double(index) * 1_000_000 / rate).rounded())
    }
}
