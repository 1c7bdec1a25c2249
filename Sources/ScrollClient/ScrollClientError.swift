import ScrollProtocol

/// Why a request to scrolld could not be carried out, in words a user can act on.
///
/// Every throwing API of ``ScrollClient`` throws this type alone (typed throws): a `catch`
/// needs no cast, and a `switch` over its cases is exhaustive.
public enum ScrollClientError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The socket path cannot name a Unix socket (empty, or too long for `sockaddr_un`).
    case invalidSocketPath(String)
    /// No daemon at the socket: no file there, or nothing listening (`reason` says which).
    case notRunning(path: String, reason: String)
    /// The socket is not this user's to open, or the daemon refused this uid (`forbidden`).
    case permissionDenied(String)
    /// The daemon refused the request (docs/design.md §7's codes), or the client refused it before
    /// sending with the error the daemon would have given: `invalidValue` for a number JSON
    /// cannot carry (NaN, infinity), `tooLarge` for a request line over the daemon's 64 KiB.
    case daemon(code: ErrorCode, message: String)
    /// No reply within the time allowed (or, connecting, no welcome).
    case timeout(operation: String, seconds: String)
    /// The daemon closed the connection, or it broke.
    case disconnected(String)
    /// The daemon said something this client cannot read.
    case protocolViolation(String)
    /// The container was removed (docs/design.md §19); its subscriptions and observations have
    /// ended.
    case removed(container: String)
    /// The task waiting for the reply was cancelled. The request may have reached the daemon,
    /// and been carried out, already.
    case cancelled(operation: String)
    /// This client was closed (``ScrollClient/close()``) or released (no reference to the
    /// ``ScrollClient`` is left): its requests and sequences end with this, saying which.
    case closed(String)

    /// The error code of a daemon error (`.unknownContainer`, …); nil for the others.
    public var code: ErrorCode? {
        if case .daemon(let code, _) = self { return code }
        return nil
    }

    /// The error in one line, for a log or a terminal.
    public var description: String {
        switch self {
        case .invalidSocketPath(let path):
            return "socket path must be 1 to \(UnixSocketAddress.maximumPathLength) bytes long, got \"\(path)\" (\(path.utf8.count) bytes)"
        case .notRunning(let path, let reason):
            return "scrolld is not running (\(reason) \(path))"
        case .permissionDenied(let message), .disconnected(let message), .protocolViolation(let message), .closed(let message):
            return message
        case let .daemon(code, message):
            return "\(code.rawValue): \(message)"
        case let .timeout(operation, seconds):
            return "no reply from scrolld within \(seconds) s (\(operation))"
        case .removed(let container):
            return "container \"\(container)\" was removed"
        case .cancelled(let operation):
            return "\(operation) was cancelled"
        }
    }

    /// A daemon's error line as an error: `forbidden` (this uid refused) as a permission, a code
    /// this client does not know (from a newer daemon) as a protocol violation that quotes it.
    static func fromDaemon(code: String, message: String) -> ScrollClientError {
        guard let known = ErrorCode(rawValue: code) else {
            return .protocolViolation("scrolld answered \(code): \(message)")
        }
        return known == .forbidden ? .permissionDenied("\(code): \(message)") : .daemon(code: known, message: message)
    }
}
