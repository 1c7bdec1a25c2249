import NIOCore
import ScrollModel
import ScrollProtocol
import ScrollSession

extension DaemonCore {
    /// Applies a state-changing request from `client` now, notes the leases it takes or gives
    /// up (docs/design.md §19), then publishes and reschedules.
    func perform(_ operation: Operation, from client: Client) throws(ProtocolError) {
        defer { finish() }
        let existing = operation.container.flatMap { session.index(of: $0) }.map { session.engine.slots[$0].id }
        try execute(.request(operation, client: client.number, at: eventLoop.timestamp))
        switch operation {
        case .configure(let name, _, _, true) where existing == nil:
            if let index = session.index(of: name) { publisher[session.engine.slots[index].id]?.owner = client.number }
        case .pause:
            if let existing { publisher[existing]?.pausedBy = client.number }
        case .resume:
            if let existing { publisher[existing]?.pausedBy = nil }
        case .focus(let name):
            connections.focusedBy = name == nil ? nil : client.number
        case .remove:
            if let existing { publisher.remove(existing) }
            if session.focus == nil { connections.focusedBy = nil }
        default:
            break
        }
    }
}
