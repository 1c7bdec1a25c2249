/// Instants to mark on a time axis (input events, frames), kept in bounded memory: one per
/// bucket of `width` µs, the earliest; the width starts at 1 µs and doubles whenever more than
/// `capacity` buckets are in use. Ticks closer than a pixel look the same, so nothing visible
/// is lost as long as the capacity exceeds the plot's width in pixels.
public struct TickSet: Sendable {
    public let capacity: Int
    public private(set) var width: Int64 = 1
    private var keys: [Int64] = []
    private var times: [Int64] = []
    /// How many instants were inserted, including those sharing a bucket.
    public private(set) var count = 0

    public init(capacity: Int = 8192) {
        self.capacity = max(2, capacity)
    }

    /// Inserts `time` µs after the origin; times must not decrease.
    public mutating func insert(_ time: Int64) {
        count += 1
        let key = time / width
        if keys.last == key { return }
        keys.append(key)
        times.append(time)
        if keys.count > capacity { coarsen() }
    }

    private mutating func coarsen() {
        width *= 2
        var newKeys: [Int64] = []
        var newTimes: [Int64] = []
        for (key, time) in zip(keys, times) where newKeys.last != key / 2 {
            newKeys.append(key / 2)
            newTimes.append(time)
        }
        keys = newKeys
        times = newTimes
    }

    /// The kept instants, in seconds after the origin, ascending.
    public var seconds: [Double] { times.map { Double($0) / 1_000_000 } }
}
