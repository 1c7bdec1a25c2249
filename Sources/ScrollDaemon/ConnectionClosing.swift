/// Why the daemon is closing a connection, sent down its pipeline (a user outbound event)
/// just before the refusal's close: a transport with a close handshake of its own says it
/// there (``WebSocketLines``: a WebSocket close code); on a Unix socket nothing reads it.
package enum ConnectionClosing: Sendable, Equatable {
    /// The peer may not connect (another uid, credentials that cannot be read).
    case forbidden
    /// The daemon serves as many connections as it may.
    case tooManyConnections
    /// A request longer than the line limit (docs/design.md §7: 64 KiB).
    case lineTooLong
}
