import Logging
import ScrollProtocol

/// The daemon's connections: those served, how many are open or linger before their close,
/// the limit, the numbers they get, the one whose `focus` is in force, and the leases each
/// holds on containers, `owned` and `pause` (kept with the containers too:
/// ``PublishedContainer``).
package final class Connections {
    /// The connections served now, greeted (refused ones are not here).
    package private(set) var clients: [ObjectIdentifier: Client] = [:]
    /// Connections open now, greeted or not (refused ones until they close).
    var open = 0
    /// Refused connections lingering before their close (`ClientHandler`).
    var lingering = 0
    /// Connections to the WebSocket listener whose handshake is under way (``WebHandshake``):
    /// not yet counted among the open ones, so bounded apart.
    var handshaking = 0
    /// The most connections served at once; more are refused with `too_large`. The daemon's
    /// POSIX side sets it from the descriptors it may open (docs/design.md, "Limits").
    package var limit = Connections.defaultLimit
    package static let defaultLimit = 4096
    /// How long a client's socket may stay full before the client is dropped.
    package var stuckClientLimit = Client.defaultStuckLimit
    /// The number the next connection gets (docs/design.md §17's `client`; 0 is the daemon itself).
    var nextNumber = 1
    /// The connection whose `focus` is in force (undone when it closes, docs/design.md §19);
    /// nil when there is no focus.
    var focusedBy: Int?
    /// The containers each connection owns or whose pause it holds, by the connection's number
    /// (connections holding none are not here): what a close undoes is found without looking
    /// at every container (docs/design.md §19).
    var held: [Int: HeldLeases] = [:]
    /// The causes of the connections refused since one was last accepted: each is logged once,
    /// and no more than ``maximumLoggedRefusals`` of them (a flood of refusals must not flood
    /// the journal too).
    private var loggedRefusals: Set<String> = []

    /// How many kinds of refusal are logged between two accepted connections.
    static let maximumLoggedRefusals = 8

    func add(_ client: Client) {
        clients[client.id] = client
        loggedRefusals.removeAll()
    }

    func remove(_ client: Client) {
        clients[client.id] = nil
    }

    /// Whether `client` is one served now (not a closed one of the same number).
    func isOpen(_ client: Client) -> Bool {
        clients[client.id] === client
    }

    /// The open connections in the order they came.
    var inOrder: [Client] { clients.values.sorted { $0.number < $1.number } }

    /// Notes a refused connection, logged once per cause until one is accepted again, and at
    /// most ``maximumLoggedRefusals`` causes: the last logged says the others are not.
    /// `message` says why, as the log line ends; `cause`: what makes refusals alike when their
    /// messages differ (every request for a path not served is one cause, whatever the path);
    /// nil: the message.
    func noteRefusal(_ message: String, cause: String? = nil, logger: Logger) {
        let cause = cause ?? message
        guard loggedRefusals.count < Self.maximumLoggedRefusals, loggedRefusals.insert(cause).inserted else { return }
        let more = loggedRefusals.count == Self.maximumLoggedRefusals ? "; other refusals are not logged until a connection is accepted" : ""
        logger.warning("refused a connection: \(message)\(more)")
    }
}
