/// The release velocity of a drag: the sum of the scaled deltas of the events within the last
/// `window` of event time (the stop event included), divided by `t_last − t_first`.
///
/// Samples live in a fixed ring, allocated once, so tracking costs no allocation per event.
/// Past `capacity` samples inside one window (over ~1700 events/s at 150 ms) the oldest drop
/// out, which shortens the window rather than failing.
public struct VelocityTracker: Sendable {
    struct Sample: Sendable {
        var time: Timestamp
        var delta: Point
    }

    var ring: [Sample]
    var head = 0
    var count = 0
    /// µs of event time the velocity is measured over (`velocity_window`, 150 000 by default),
    /// rounded from the seconds given to `init`.
    public let window: Timestamp

    /// A tracker measuring over `seconds` of event time, keeping at most `capacity` (≥ 1) samples.
    public init(window seconds: Double, capacity: Int = 256) {
        window = Timestamp((seconds * 1_000_000).rounded())
        ring = Array(repeating: Sample(time: 0, delta: .zero), count: max(1, capacity))
    }

    /// Forgets every sample (a new drag starts); ``velocity`` becomes zero.
    public mutating func reset() {
        head = 0
        count = 0
        velocity = .zero
    }

    /// Records one event: its delta, px, already multiplied by the finger scale (zero for the
    /// stop event, which still counts in the window), at `time` µs. Times must not go backwards.
    public mutating func add(_ delta: Point, at time: Timestamp) {
        ring[(head + count) % ring.count] = Sample(time: time, delta: delta)
        if count < ring.count {
            count += 1
        } else {
            head = (head + 1) % ring.count
        }
        // Samples older than the window never count again.
        while count > 1 && time - ring[head].time > window {
            head = (head + 1) % ring.count
            count -= 1
        }
        velocity = measuredVelocity()
    }

    /// px/s per axis; zero with fewer than two samples in the window. Kept up to date by
    /// `add` and `reset`, since it is read more often than samples arrive.
    public private(set) var velocity: Point = .zero

    private func measuredVelocity() -> Point {
        guard count > 1 else { return .zero }
        let first = ring[head].time
        let last = ring[(head + count - 1) % ring.count].time
        guard last > first else { return .zero }
        // Oldest first, as the samples came: the ring's tail part, then its wrapped part (no
        // division per sample).
        var sum = Point.zero
        let tail = min(count, ring.count - head)
        for i in head..<(head + tail) {
            sum = sum + ring[i].delta
        }
        for i in 0..<(count - tail) {
            sum = sum + ring[i].delta
        }
        let seconds = Double(last - first) / 1_000_000
        return Point(x: sum.x / seconds, y: sum.y / seconds)
    }
}
