/// A series reduced while it is recorded, in bounded memory: points fall into time buckets of
/// `width` µs (starting at 1 µs, so short logs are kept exactly), each keeping its
/// `EnvelopeBucket`; when more than `capacity` buckets are in use, neighbours merge pairwise and
/// the width doubles. A replay of any length therefore keeps at most `4 × capacity` points per
/// series, with every peak, for `Decimation` to reduce to pixels.
public struct StreamingEnvelope: Sendable {
    public let capacity: Int
    public private(set) var width: Int64 = 1
    private var buckets: [EnvelopeBucket] = []
    private var count = 0

    public init(capacity: Int = 4096) {
        self.capacity = max(2, capacity)
    }

    /// Appends a value at `time` µs after the origin; times must not decrease.
    public mutating func append(time: Int64, value: Double) {
        guard value.isFinite else { return }
        let entry = EnvelopeBucket.Entry(sequence: count, point: PlotPoint(t: Double(time) / 1_000_000, v: value))
        count += 1
        let key = time / width
        if let last = buckets.indices.last, buckets[last].key == key {
            buckets[last].add(entry)
            return
        }
        buckets.append(EnvelopeBucket(key: key, entry))
        if buckets.count > capacity { coarsen() }
    }

    /// Doubles the bucket width, merging each pair of buckets that now share a key.
    private mutating func coarsen() {
        width *= 2
        var merged: [EnvelopeBucket] = []
        merged.reserveCapacity(capacity)
        for var bucket in buckets {
            bucket.key /= 2
            if merged.last?.key == bucket.key {
                merged[merged.count - 1].merge(bucket)
            } else {
                merged.append(bucket)
            }
        }
        buckets = merged
    }

    /// The kept points in time order.
    public var points: [PlotPoint] {
        buckets.flatMap { $0.entries.map(\.point) }
    }

    public var isEmpty: Bool { buckets.isEmpty }
}
