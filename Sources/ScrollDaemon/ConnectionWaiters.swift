import ScrollProtocol

/// One connection's subscriptions and observations waiting for their containers
/// (docs/design.md §20), at most ``Limits/waiting``: found by name or id, added and ended, at
/// a cost that does not grow with how many it has.
struct ConnectionWaiters {
    private var list = WaitingList()
    /// The waiting subscriptions by their names, byte for byte (one each: a new one replaces it).
    private var subscriptions: [ExactName: Waiter] = [:]
    /// The waiting observations by their ids.
    private var observationIDs: [RequestID: Waiter] = [:]

    var count: Int { list.count }
    /// How many of them are observations.
    var observations: Int { list.observations }

    mutating func append(_ waiter: Waiter) {
        list.append(waiter)
        switch waiter.kind {
        case .subscription: subscriptions[ExactName(waiter.name)] = waiter
        case .observation(_, let id): observationIDs[id] = waiter
        }
    }

    /// Takes `waiter` off the list.
    mutating func remove(_ waiter: Waiter) {
        guard list.remove(waiter) else { return }
        switch waiter.kind {
        case .subscription:
            let name = ExactName(waiter.name)
            if subscriptions[name] === waiter { subscriptions[name] = nil }
        case .observation(_, let id): observationIDs[id] = nil
        }
    }

    mutating func removeAll() {
        list.removeAll()
        subscriptions.removeAll()
        observationIDs.removeAll()
    }

    /// The waiting subscription to `name`, byte for byte.
    func subscription(to name: String) -> Waiter? { subscriptions[ExactName(name)] }

    /// The waiting observation called `id`.
    func observation(_ id: RequestID) -> Waiter? { observationIDs[id] }

    /// The waiters in the order they came.
    var inOrder: [Waiter] { list.inOrder }
}

/// A container name compared and hashed byte for byte, as names are matched (Swift's `==` on
/// strings takes two Unicode spellings of one name as equal).
struct ExactName: Hashable {
    let name: String

    init(_ name: String) { self.name = name }

    static func == (lhs: ExactName, rhs: ExactName) -> Bool { lhs.name.utf8.elementsEqual(rhs.name.utf8) }

    func hash(into hasher: inout Hasher) {
        var name = name
        name.withUTF8 { hasher.combine(bytes: UnsafeRawBufferPointer($0)) }
    }
}
