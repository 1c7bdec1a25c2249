/// The subscriptions and observations waiting for one container name (docs/design.md §20), in
/// the order they came. Adding or ending one costs the same however many wait: a name may have
/// thousands waiting, from every connection, and a walk of them all per waiter made creating
/// the container (or closing one of those connections) quadratic on the event loop.
struct WaitingList {
    private var entries: [ObjectIdentifier: (order: Int, waiter: Waiter)] = [:]
    private var next = 0
    /// How many of them are observations.
    private(set) var observations = 0

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }

    mutating func append(_ waiter: Waiter) {
        entries[ObjectIdentifier(waiter)] = (next, waiter)
        next += 1
        if waiter.observationID != nil { observations += 1 }
    }

    /// Takes `waiter` off the list; true when it was on it.
    @discardableResult
    mutating func remove(_ waiter: Waiter) -> Bool {
        guard entries.removeValue(forKey: ObjectIdentifier(waiter)) != nil else { return false }
        if waiter.observationID != nil { observations -= 1 }
        return true
    }

    /// The waiters in the order they came.
    var inOrder: [Waiter] { entries.values.sorted { $0.order < $1.order }.map(\.waiter) }
}
