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
            if let container { hold(container, by: number) }
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

    /// Connection `number`'s pause holds `container`, after those that held it already (one
    /// that holds it already keeps its place).
    private func hold(_ container: PublishedContainer, by number: Int) {
        guard held[number]?.paused[container.id] == nil else { return }
        if container.pausers.isSparse {
            for (place, holder) in container.pausers.closeUp().enumerated() { held[holder]?.paused[container.id] = place }
        }
        held[number, default: HeldLeases()].paused[container.id] = container.pausers.append(number)
    }

    /// A `resume`: nobody's pause holds `container` any more.
    private func resumeAll(_ container: PublishedContainer) {
        for number in container.pausers.inOrder { drop(container.id, pausedBy: number) }
        container.pausers.removeAll()
    }

    /// `container` was removed: no connection holds it any more.
    func forget(_ container: PublishedContainer) {
        if let owner = container.owner { drop(container.id, ownedBy: owner) }
        for number in container.pausers.inOrder { drop(container.id, pausedBy: number) }
    }

    /// What connection `number` holds, taken out of the book: the containers it owns, in the
    /// order they were made (so a recording of what undoes them is the same every time), and
    /// those its pause holds, each with the connection's place among its holders, in no order.
    /// The records are left for the caller to change.
    func takeLeases(of number: Int, in publisher: Publisher) -> (owned: [PublishedContainer], paused: [(container: PublishedContainer, place: Int)]) {
        guard let leases = held.removeValue(forKey: number) else { return ([], []) }
        let owned = leases.owned.sorted().compactMap { publisher[$0] }
        return (owned, leases.paused.compactMap { id, place in publisher[id].map { ($0, place) } })
    }

    /// Builds the book again from the containers' records (a restart set them from the store).
    func noteLeases(recordedOn containers: some Sequence<PublishedContainer>) {
        held = [:]
        for container in containers {
            if let owner = container.owner { held[owner, default: HeldLeases()].owned.insert(container.id) }
            for (place, number) in container.pausers.order.enumerated() {
                if let number { held[number, default: HeldLeases()].paused[container.id] = place }
            }
        }
    }

    private func drop(_ id: ContainerID, ownedBy number: Int) {
        held[number]?.owned.remove(id)
        if held[number]?.isEmpty == true { held[number] = nil }
    }

    private func drop(_ id: ContainerID, pausedBy number: Int) {
        held[number]?.paused.removeValue(forKey: id)
        if held[number]?.isEmpty == true { held[number] = nil }
    }
}

/// The containers one connection holds (``Connections/held``).
struct HeldLeases {
    var owned: Set<ContainerID> = []
    /// Each container its pause holds, with its place among the container's holders
    /// (``PauseHolders``).
    var paused: [ContainerID: Int] = [:]

    var isEmpty: Bool { owned.isEmpty && paused.isEmpty }
}
