import NIOCore
import ScrollModel
import ScrollProtocol
import ScrollSession

/// The requests that change containers: each is a command of its connection applied by the
/// core (``DaemonCore/execute(_:)``), and the leases it takes or gives up are noted
/// (docs/design.md §19). What a closed connection leaves behind is undone the same way, so a
/// recording replays it.
extension RequestHandler {
    /// Applies a state-changing request from `client` now, then publishes and reschedules.
    func perform(_ operation: Operation, from client: Client) throws(ProtocolError) {
        defer { core.finish() }
        try request(operation, from: client.number)
    }

    /// Applies `operation` as a request of connection `number` at `time` (nil: now) and notes
    /// its leases. Nothing is delivered until ``DaemonCore/finish()``.
    func request(_ operation: Operation, from number: Int, at time: Timestamp? = nil) throws(ProtocolError) {
        let before = operation.container.flatMap(core.record(named:))
        try core.execute(.request(operation, client: number, at: time ?? core.eventLoop.timestamp))
        if case .remove = operation, let before {
            core.publisher.remove(before.id)
            core.connections.forget(before)
        }
        core.connections.noteLeases(
            of: operation, by: number, on: before ?? operation.container.flatMap(core.record(named:)),
            created: before == nil, focusInForce: core.session.focus != nil)
    }

    /// What connection `number` left behind is undone (docs/design.md §19): the containers it
    /// owns are removed, the containers only its pause holds resumed, its focus cleared — each
    /// as a request of that connection, at one instant. Also for a connection that did not come back after a
    /// restart (docs/design.md §16). It costs what the connection held, not a look at every container.
    func undo(forConnection number: Int) {
        let now = core.eventLoop.timestamp
        let connections = core.connections
        let held = connections.takeLeases(of: number, in: core.publisher)
        let leftBehind = !held.owned.isEmpty || !held.paused.isEmpty || connections.focusedBy == number
        core.publisher.coalescingRemovals {
            for container in held.owned {
                do throws(ProtocolError) {
                    try request(.remove(container: container.name), from: number, at: now)
                } catch {
                    core.logger.error("cannot remove \(container.name), owned by a closed connection: \(error.message)")
                }
            }
        }
        // After the removals: a container both owned and paused is gone, unless its removal
        // failed. Those no other connection's pause holds are resumed in the order they were made.
        var resumed: [PublishedContainer] = []
        for (container, place) in held.paused where core.publisher[container.id] != nil {
            container.pausers.drop(at: place)
            if container.pausers.isEmpty { resumed.append(container) }
        }
        for container in resumed.sorted(by: { $0.id < $1.id }) {
            _ = try? request(.resume(container: container.name), from: number, at: now)
        }
        if core.session.focus == nil { connections.focusedBy = nil }
        if connections.focusedBy == number { _ = try? request(.focus(container: nil), from: number, at: now) }
        core.finish()
        // The restart store: the containers changed only if the connection left something.
        if leftBehind { core.store?.containersChanged(.unchanged) } else { core.store?.connectionClosed(number) }
    }
}
