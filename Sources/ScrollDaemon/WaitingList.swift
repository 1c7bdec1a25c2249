/// The subscriptions and observations waiting for one container name (docs/design.md §20), in
/// the order they came. Adding or ending one costs the same however many wait: a name may have
/// thousands waiting, from every connection, and a walk of them all per waiter made creating
/// the container (or closing one of those connections) quadratic on the event loop.
struct WaitingList {
    private var waiters = ArrivalOrder<ObjectIdentifier, Waiter>()
    /// How many of them are observations.
    private(set) var observations = 0

    var count: Int { waiters.count }
    var isEmpty: Bool { waiters.isEmpty }

    mutating func append(_ waiter: Waiter) {
        waiters.append(waiter, for: ObjectIdentifier(waiter))
        if waiter.observationID != nil { observations += 1 }
    }

    /// Takes `waiter` off the list; true when it was on it.
    @discardableResult
    mutating func remove(_ waiter: Waiter) -> Bool {
        guard waiters.remove(ObjectIdentifier(waiter)) != nil else { return false }
        if waiter.observationID != nil { observations -= 1 }
        return true
    }

    mutating func removeAll() {
        waiters.removeAll()
        observations = 0
    }

    /// The waiters in the order they came.
    var inOrder: [Waiter] { waiters.inOrder }
}
