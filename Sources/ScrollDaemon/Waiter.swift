import ScrollModel
import ScrollProtocol

/// A subscription or observation waiting for its container (docs/design.md §20): asked for
/// with `"wait": true` while no container has the name, or left waiting again by a `removed`.
/// It starts as an ordinary one when a container of that name (byte for byte) is created.
final class Waiter {
    enum Kind {
        /// `subscribe` at `rate` (nil: every state).
        case subscription(rate: Double?)
        /// `observe`, named `id` on the connection.
        case observation(ScrollObservation, id: RequestID)
    }

    /// Strong: the client drops its waiters when it disconnects (``Publisher/forget(_:)``).
    let client: Client
    let name: String
    let kind: Kind

    init(client: Client, name: String, kind: Kind) {
        self.client = client
        self.name = name
        self.kind = kind
    }

    /// The observation's id, if it is one.
    var observationID: RequestID? {
        guard case .observation(_, id: let id) = kind else { return nil }
        return id
    }
}
