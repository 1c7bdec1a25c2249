import ScrollClient
import ScrollProtocol

/// scrollctl's connection: ScrollClient's ``DaemonSocket``, with each failure turned into its
/// one line and scrollctl's exit status.
final class DaemonConnection {
    typealias Message = DaemonSocket.Message

    private let socket: DaemonSocket

    init(path: String) throws(ClientFailure) {
        socket = try Self.mapped { () throws(ScrollClientError) in try DaemonSocket(path: path) }
    }

    /// The server's version, once its welcome has been read.
    var server: String? { socket.server }

    /// Whether a whole line is already buffered.
    var hasBufferedLine: Bool { socket.hasBufferedLine }

    @discardableResult
    func send(_ operation: Operation) throws(ClientFailure) -> RequestID {
        try Self.mapped { () throws(ScrollClientError) in try socket.send(operation) }
    }

    func request(_ operation: Operation, timeout: Duration) throws(ClientFailure) -> Message {
        try Self.mapped { () throws(ScrollClientError) in try socket.request(operation, timeout: timeout) }
    }

    func reply(to id: RequestID, operation: Operation, timeout: Duration) throws(ClientFailure) -> Message {
        try Self.mapped { () throws(ScrollClientError) in try socket.reply(to: id, operation: operation, timeout: timeout) }
    }

    func nextMessage() throws(ClientFailure) -> Message {
        try Self.mapped { () throws(ScrollClientError) in try socket.nextMessage() }
    }

    func nextLine(until deadline: ContinuousClock.Instant?) throws(ClientFailure) -> [UInt8]? {
        try Self.mapped { () throws(ScrollClientError) in try socket.nextLine(until: deadline) }
    }

    func decode(_ line: [UInt8]) throws(ClientFailure) -> Message {
        try Self.mapped { () throws(ScrollClientError) in try socket.decode(line) }
    }

    /// A daemon's error line as scrollctl's failure.
    static func failure(code: String, message: String) -> ClientFailure {
        ClientFailure(DaemonSocket.failure(code: code, message: message))
    }

    private static func mapped<T>(_ body: () throws(ScrollClientError) -> T) throws(ClientFailure) -> T {
        do {
            return try body()
        } catch {
            throw ClientFailure(error)
        }
    }
}

extension ClientFailure {
    /// A client error's line, with the exit status scrollctl documents for it.
    init(_ error: ScrollClientError) {
        let status: ExitStatus
        switch error {
        case .invalidSocketPath: status = .usage
        case .notRunning, .disconnected, .closed, .cancelled: status = .unavailable
        case .permissionDenied: status = .forbidden
        case .daemon, .removed: status = .daemonError
        case .timeout: status = .timeout
        case .protocolViolation: status = .protocolError
        }
        self.init(error.description, status: status)
    }
}
