import ScrollProtocol

/// Why a request to scrolld could not be carried out, in words a user can act on.
public enum ScrollClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The socket path cannot name a Unix socket (empty, or too long for `sockaddr_un`).
    case invalidSocketPath(String)
    /// No daemon at the socket: no file there, or nothing listening (`reason` says which).
    case notRunning(path: String, reason: String)
    /// The socket is not this user's to open, or the daemon refused this uid (`forbidden`).
    case permissionDenied(String)
    /// The daemon answered the request with an error (docs/design.md §7's codes).
    case daemon(code: String, message: String)
    /// No reply within the time allowed.
    case timeout(operation: String, seconds: String)
    /// The daemon closed the connection, or it broke.
    case disconnected(String)
    /// The daemon said something this client cannot read.
    case protocolViolation(String)
    /// The container was removed (docs/design.md §19); its subscriptions and observations have
    /// ended.
    case removed(container: String)

    /// The error code of a daemon error (`unknown_container`, …); nil for the others.
    public var code: String? {
        if case .daemon(let code, _) = self { return code }
        return nil
    }

    public var description: String {
        switch self {
        case .invalidSocketPath(let path):
            return "socket path must be 1 to \(UnixSocketAddress.maximumPathLength) bytes long: \(path)"
        case .notRunning(let path, let reason):
            return "scrolld is not running (\(reason) \(path))"
        case .permissionDenied(let message), .disconnected(let message), .protocolViolation(let message):
            return message
        case let .daemon(code, message):
            return "\(code): \(message)"
        case let .timeout(operation, seconds):
            return "no reply from scrolld within \(seconds) s (\(operation))"
        case .removed(let container):
            return "container \"\(container)\" was removed"
        }
    }
}
