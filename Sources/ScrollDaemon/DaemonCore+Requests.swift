import NIOCore
import ScrollModel
import ScrollProtocol
import ScrollSession

extension DaemonCore {
    /// Applies a state-changing request from `client` now, then publishes and reschedules.
    func perform(_ operation: Operation, from client: Client) throws(ProtocolError) {
        defer { finish() }
        try request(operation, from: client.number)
    }

    /// Applies `operation` as a request of connection `number` and notes the leases it takes or
    /// gives up (docs/design.md §19), at `time` (nil: now). Nothing is delivered until
    /// ``finish()``.
    func request(_ operation: Operation, from number: Int, at time: Timestamp? = nil) throws(ProtocolError) {
        let before = operation.container.flatMap(record(named:))
        try execute(.request(operation, client: number, at: time ?? eventLoop.timestamp))
        if case .remove = operation, let before { publisher.remove(before.id) }
        connections.noteLeases(
            of: operation, by: number, on: before ?? operation.container.flatMap(record(named:)),
            created: before == nil, focusInForce: session.focus != nil)
    }

    /// The record of the container called `name`, if there is one.
    func record(named name: String) -> PublishedContainer? {
        session.index(of: name).flatMap { publisher[session.engine.slots[$0].id] }
    }
}
