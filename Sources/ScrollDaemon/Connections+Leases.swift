import ScrollModel
import ScrollProtocol

/// The leases a connection holds (docs/design.md §19): the containers it created `owned`, the
/// containers its `pause` holds, and the focus it set. What it holds is undone when it closes.
///
/// Each lease is kept on both sides, the container's record (``PublishedContainer``: its owner
/// and its holders, which the restart store writes) and the connection's entry in
/// ``Connections/held``, and changed on both at once here: a pause costs O(1), and a close or a
/// connection that did not come back after a restart costs what it held, not a walk of every
/// container and every holder (a thousand connections that had each paused a thousand
/// containers, closing together, stalled the daemon for seconds).
extension Connections {
    /// Notes what `operation` of connection `number` took or gave up, once the session applied
    /// it: `container` is the record it addressed (the new one when it created it, `created`),
    /// `focusInForce` whether the session has a focus after it.
    func noteLeases(of operation: Operation, by number: Int, on container: PublishedContainer?, created: Bool, focusInForce: Bool) {
        switch operation {
        case .configure(_, _, _, true) where created:
            if let container { setOwner(of: container, to: number) }
        case .pause:
            if let container, !container.pausers.contains(number) {
                container.pausers.insert(number)
                held[number, default: HeldLeases()].paused.insert(container.id)
            }
        case .resume:
            if let container { resumeAll(container) }
        case .focus(let name):
            focusedBy = name == nil ? nil : number
        default:
            break
        }
        if !focusInForce { focusedBy = nil }
    }

    /// Makes `number` the owner of `container` (nil: nobody's).
    func setOwner(of container: PublishedContainer, to number: Int?) {
        if let owner = container.owner { drop(container.id, ownedBy: owner) }
        container.owner = number
        if let number { held[number, default: HeldLeases()].owned.insert(container.id) }
    }

    /// A `resume`: nobody's pause holds `container` any more.
    func resumeAll(_ container: PublishedContainer) {
        for number in container.pausers.inOrder { drop(container.id, pausedBy: number) }
        container.pausers.removeAll()
    }

    /// Connection `number`'s pause no longer holds `container`; whether another's still does.
    func release(_ container: PublishedContainer, by number: Int) -> Bool {
        container.pausers.remove(number)
        drop(container.id, pausedBy: number)
        return !container.pausers.isEmpty
    }

    /// `container` was removed: no connection holds it any more.
    func forget(_ container: PublishedContainer) {
        if let owner = container.owner { drop(container.id, ownedBy: owner) }
        for number in container.pausers.inOrder { drop(container.id, pausedBy: number) }
    }

    /// What connection `number` holds, taken out of the book: the containers it owns and those
    /// its pause holds, each in the order the containers were made (so a recording of what
    /// undoes them is the same every time). The records stay as they are.
    func takeLeases(of number: Int, in publisher: Publisher) -> (owned: [PublishedContainer], paused: [PublishedContainer]) {
        guard let leases = held.removeValue(forKey: number) else { return ([], []) }
        return (leases.owned.sorted().compactMap { publisher[$0] }, leases.paused.sorted().compactMap { publisher[$0] })
    }

    /// Builds the book again from the containers' records (a restart set them from the store).
    func noteLeases(recordedOn containers: some Sequence<PublishedContainer>) {
        held = [:]
        for container in containers {
            if let owner = container.owner { held[owner, default: HeldLeases()].owned.insert(container.id) }
            for number in container.pausers.inOrder { held[number, default: HeldLeases()].paused.insert(container.id) }
        }
    }

    private func drop(_ id: ContainerID, ownedBy number: Int) {
        held[number]?.owned.remove(id)
        if held[number]?.isEmpty == true { held[number] = nil }
    }

    private func drop(_ id: ContainerID, pausedBy number: Int) {
        held[number]?.paused.remove(id)
        if held[number]?.isEmpty == true { held[number] = nil }
    }
}

/// The containers one connection holds (``Connections/held``).
struct HeldLeases {
    var owned: Set<ContainerID> = []
    var paused: Set<ContainerID> = []

    var isEmpty: Bool { owned.isEmpty && paused.isEmpty }
}
