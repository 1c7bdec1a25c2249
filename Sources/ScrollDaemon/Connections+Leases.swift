import ScrollProtocol

/// The leases a connection holds (docs/design.md §19): the containers it created `owned`, the
/// containers its `pause` holds (both kept on the container's record, ``PublishedContainer``),
/// and the focus it set. What it holds is undone when it closes.
extension Connections {
    /// Notes what `operation` of connection `number` took or gave up, once the session applied
    /// it: `container` is the record it addressed (the new one when it created it, `created`),
    /// `focusInForce` whether the session has a focus after it.
    func noteLeases(of operation: Operation, by number: Int, on container: PublishedContainer?, created: Bool, focusInForce: Bool) {
        switch operation {
        case .configure(_, _, _, true) where created:
            container?.owner = number
        case .pause:
            if let container, !container.pausedBy.contains(number) { container.pausedBy.append(number) }
        case .resume:
            container?.pausedBy = []
        case .focus(let name):
            focusedBy = name == nil ? nil : number
        default:
            break
        }
        if !focusInForce { focusedBy = nil }
    }

    /// The containers connection `number` owns, and those its `pause` holds, in the order the
    /// containers were made (so a recording of what undoes them is the same every time).
    func leases(of number: Int, on containers: some Sequence<PublishedContainer>) -> (owned: [PublishedContainer], paused: [PublishedContainer]) {
        let ordered = containers.sorted { $0.id < $1.id }
        return (ordered.filter { $0.owner == number }, ordered.filter { $0.pausedBy.contains(number) })
    }
}
