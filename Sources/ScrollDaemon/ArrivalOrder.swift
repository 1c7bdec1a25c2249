/// Values kept in the order they came, each found, replaced or removed by its key at a cost
/// that does not grow with how many there are, and walked in order without sorting. A
/// connection may hold a thousand subscriptions and waiters, and a name thousands of waiters:
/// a search of them all per change made closing a connection that owned many containers
/// quadratic on the event loop.
struct ArrivalOrder<Key: Hashable, Value> {
    /// In order; nil where one was removed (compacted once they are half).
    private var slots: [(key: Key, value: Value)?] = []
    private var positions: [Key: Int] = [:]

    var count: Int { positions.count }
    var isEmpty: Bool { positions.isEmpty }

    /// The value under `key`.
    subscript(key: Key) -> Value? { positions[key].flatMap { slots[$0]?.value } }

    /// Adds `value` last, under `key`; one already under it goes.
    mutating func append(_ value: Value, for key: Key) {
        remove(key)
        positions[key] = slots.count
        slots.append((key, value))
    }

    /// Takes the value under `key` away and returns it.
    @discardableResult
    mutating func remove(_ key: Key) -> Value? {
        guard let position = positions.removeValue(forKey: key) else { return nil }
        let value = slots[position]?.value
        slots[position] = nil
        if slots.count >= 16, positions.count <= slots.count / 2 { compact() }
        return value
    }

    mutating func removeAll() {
        slots.removeAll()
        positions.removeAll()
    }

    /// The values in the order they came.
    var inOrder: [Value] { Array(values) }

    /// The values in the order they came, walked without copying them out.
    var values: some Sequence<Value> {
        slots.lazy.compactMap { $0?.value }
    }

    private mutating func compact() {
        slots = slots.filter { $0 != nil }
        for (position, slot) in slots.enumerated() { positions[slot!.key] = position }
    }
}
