#if canImport(Glibc)
import Glibc
#endif
import ScrollProtocol

/// One connection to scrolld: blocking POSIX socket I/O, JSON lines both ways, every request
/// with its own `id` and its reply found by that id among whatever else arrives.
final class DaemonConnection {
    /// A line as it arrived, and what it says.
    struct Message {
        /// The bytes the daemon sent, without the newline.
        var line: [UInt8]
        var reply: Reply
    }

    let path: String
    private let fd: Int32
    private var buffer: [UInt8] = []
    /// Where unread bytes start in `buffer`.
    private var start = 0
    /// Where the search for the next newline resumes.
    private var scanned = 0
    private var nextID = 1
    /// What one recv(2) reads into.
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 65536, alignment: 1)
    /// The server's version, once its welcome has been read.
    private(set) var server: String?

    /// A line this long without a newline is not the protocol.
    static let maximumLineLength = 16 << 20

    init(path: String) throws(ClientFailure) {
        self.path = path
        fd = try Self.connect(path)
    }

    /// A socket connected to `path`.
    private static func connect(_ path: String) throws(ClientFailure) -> Int32 {
        guard let address = UnixSocketAddress(path: path) else {
            throw ClientFailure("socket path must be 1 to \(UnixSocketAddress.maximumPathLength) bytes long: \(path)", status: ExitStatus.usage)
        }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else {
            throw ClientFailure("cannot create a socket: \(String(cString: strerror(errno)))", status: ExitStatus.unavailable)
        }
        let result = address.withSockAddr { Glibc.connect(fd, $0, $1) }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw connectFailure(code, path: path)
        }
        return fd
    }

    deinit {
        close(fd)
        chunk.deallocate()
    }

    private static func connectFailure(_ code: Int32, path: String) -> ClientFailure {
        switch code {
        case ENOENT, ENOTDIR:
            ClientFailure("scrolld is not running (no socket at \(path))", status: ExitStatus.unavailable)
        case ECONNREFUSED:
            ClientFailure("scrolld is not running (nothing listens on \(path))", status: ExitStatus.unavailable)
        case EACCES, EPERM:
            ClientFailure("cannot connect to \(path): \(String(cString: strerror(code)))", status: ExitStatus.forbidden)
        default:
            ClientFailure("cannot connect to \(path): \(String(cString: strerror(code)))", status: ExitStatus.unavailable)
        }
    }

    // MARK: Requests

    /// Sends `operation` with a fresh id and returns that id.
    @discardableResult
    func send(_ operation: Operation) throws(ClientFailure) -> RequestID {
        let id = RequestID(nextID)
        nextID += 1
        var line: [UInt8] = []
        RequestEncoder.encode(Request(id: id, operation: operation), into: &line)
        line.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < line.count {
            let n = line[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw errno == EPIPE || errno == ECONNRESET ? reasonForClosing() ?? closed : ClientFailure(
                    "cannot send to scrolld: \(String(cString: strerror(errno)))", status: ExitStatus.unavailable)
            }
            offset += n
        }
        return id
    }

    /// What the daemon said before it closed the connection, if it said why: a refused uid gets
    /// a `forbidden` line and the close, which can come before this client has sent anything,
    /// and then the send fails with EPIPE — the line, still buffered, tells the real reason.
    private func reasonForClosing() -> ClientFailure? {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(200))
        while let line = try? nextLine(until: deadline) {
            if let message = decode(line), case .error(let code, let text, nil) = message.reply {
                return Self.failure(code: code, message: text)
            }
        }
        return nil
    }

    /// Sends `operation` and waits up to `timeout` for the reply with its id, skipping every
    /// other line (broadcasts, the welcome). An error reply is thrown as its one-line reason.
    func request(_ operation: Operation, timeout: Duration) throws(ClientFailure) -> Message {
        let id = try send(operation)
        return try reply(to: id, operation: operation, timeout: timeout)
    }

    /// The reply to the request `id`, within `timeout` from now.
    func reply(to id: RequestID, operation: Operation, timeout: Duration) throws(ClientFailure) -> Message {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            guard let line = try nextLine(until: deadline) else {
                throw ClientFailure("no reply from scrolld within \(Self.seconds(timeout)) s (\(operation.name))", status: ExitStatus.timeout)
            }
            guard let message = decode(line) else { continue }
            switch message.reply {
            case .error(let code, let text, let replyID) where replyID == id || replyID == nil:
                // An error without id is about the connection itself (forbidden, too_large).
                throw Self.failure(code: code, message: text)
            default:
                if message.reply.id == id { return message }
            }
        }
    }

    /// The next line this client can read, however long it takes (a follower's loop).
    func nextMessage() throws(ClientFailure) -> Message {
        while true {
            guard let line = try nextLine(until: nil) else { continue }
            if let message = decode(line) { return message }
        }
    }

    /// Decodes a line; lines this client cannot read are skipped (a newer daemon may say more),
    /// and a welcome is remembered.
    func decode(_ line: [UInt8]) -> Message? {
        var text = line
        if text.last == UInt8(ascii: "\r") { text.removeLast() }
        guard let reply = try? ReplyDecoder.decode(text) else { return nil }
        if case .welcome(_, let server, _) = reply { self.server = server }
        return Message(line: line, reply: reply)
    }

    static func failure(code: String, message: String) -> ClientFailure {
        let status = code == ErrorCode.forbidden.rawValue ? ExitStatus.forbidden : ExitStatus.daemonError
        return ClientFailure("\(code): \(message)", status: status)
    }

    // MARK: Lines

    /// Whether a whole line is already buffered, so that `nextLine` returns without waiting.
    var hasBufferedLine: Bool {
        buffer[scanned...].contains(UInt8(ascii: "\n"))
    }

    /// The next line without its newline; nil when `deadline` passes first (nil: wait for
    /// ever). The daemon closing the connection is a failure.
    func nextLine(until deadline: ContinuousClock.Instant?) throws(ClientFailure) -> [UInt8]? {
        while true {
            if let newline = buffer[scanned...].firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[start..<newline])
                start = newline + 1
                scanned = start
                if start > 65536 && start * 2 > buffer.count {
                    buffer.removeSubrange(..<start)
                    start = 0
                    scanned = 0
                }
                return line
            }
            scanned = buffer.count
            guard buffer.count - start <= Self.maximumLineLength else {
                throw ClientFailure("scrolld sent a line longer than \(Self.maximumLineLength) bytes", status: ExitStatus.protocolError)
            }
            var wait: Int32 = -1
            if let deadline {
                let remaining = ContinuousClock.now.duration(to: deadline)
                guard remaining > .zero else { return nil }
                let (seconds, attoseconds) = remaining.components
                wait = Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, wait)
            if ready < 0 {
                if errno == EINTR { continue }
                throw ClientFailure("cannot read from scrolld: \(String(cString: strerror(errno)))", status: ExitStatus.unavailable)
            }
            if ready == 0 { continue }
            try receive()
        }
    }

    private func receive() throws(ClientFailure) {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: true)
            start = 0
            scanned = 0
        }
        let n = recv(fd, chunk.baseAddress, chunk.count, 0)
        let code = errno
        if n > 0 {
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<n]))
            return
        }
        if n < 0 && (code == EINTR || code == EAGAIN) { return }
        if n < 0 && code != ECONNRESET {
            throw ClientFailure("cannot read from scrolld: \(String(cString: strerror(code)))", status: ExitStatus.unavailable)
        }
        throw closed
    }

    private var closed: ClientFailure {
        ClientFailure("scrolld closed the connection (\(path))", status: ExitStatus.unavailable)
    }

    /// `5`, `0.25`: a duration as a user wrote it.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let millis = Int(attoseconds / 1_000_000_000_000_000)
        guard millis > 0 else { return String(seconds) }
        var fraction = String(millis)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(seconds).\(fraction)"
    }
}
