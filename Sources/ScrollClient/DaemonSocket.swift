#if canImport(Glibc)
import Glibc
#endif
import ScrollProtocol
import Synchronization

/// One connection to scrolld with blocking POSIX socket I/O: JSON lines both ways, every request
/// with its own `id` and its reply found by that id among whatever else arrives. What
/// `scrollctl` talks through; an app wants ``ScrollClient``, which never blocks.
///
/// Not thread-safe: one thread reads; any thread may send a `Request` through
/// ``send(_:timeout:)``, which touches no read state and sends one line at a time.
public final class DaemonSocket {
    /// A line as it arrived, and what it says.
    public struct Message: Sendable {
        /// The bytes the daemon sent, without the newline.
        public var line: [UInt8]
        /// What the line says, decoded.
        public var reply: Reply
    }

    /// The socket's path.
    public let path: String
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
    public private(set) var server: String?

    /// A line this long without a newline is not the protocol.
    public static let maximumLineLength = 16 << 20
    /// Held while a line is sent, so that lines from several threads never interleave; holds
    /// why the connection was cut, once a line went only in part (nothing may follow it).
    private let sending = Mutex<ScrollClientError?>(nil)

    /// Connects to the daemon's socket at `path`, blocking the calling thread; the welcome is read
    /// with the first reply. Not for an async context: a task that blocks holds a thread of the
    /// cooperative pool (``ScrollClient`` is the async client).
    @available(*, noasync, message: "DaemonSocket blocks its thread; use ScrollClient in async code")
    public init(path: String) throws(ScrollClientError) {
        self.path = path
        fd = try Self.connect(path)
    }

    /// A socket connected to `path`.
    private static func connect(_ path: String) throws(ScrollClientError) -> Int32 {
        guard let address = UnixSocketAddress(path: path) else { throw .invalidSocketPath(path) }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .disconnected("cannot create a socket: \(String(cString: strerror(errno)))") }
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

    private static func connectFailure(_ code: Int32, path: String) -> ScrollClientError {
        ScrollClientError.connecting(to: path, failedWith: code)
    }

    // MARK: Requests

    /// Sends `operation` with a fresh id and returns that id.
    @discardableResult
    public func send(_ operation: Operation) throws(ScrollClientError) -> RequestID {
        let id = RequestID(nextID)
        nextID += 1
        do {
            try send(Request(id: id, operation: operation))
        } catch {
            guard case .disconnected = error, let reason = reasonForClosing() else { throw error }
            throw reason
        }
        return id
    }

    /// Writes one request line as it is (its `id` the caller's). Touches no read state, so
    /// another thread may send while one reads; lines sent from several threads go whole, one
    /// after the other.
    ///
    /// With a `timeout`, gives up when the daemon has not taken the whole line by then (one that
    /// stopped reading with its socket full): `.timeout` if none of the line went. If part of it
    /// did, the daemon would read the next line as its rest, so the connection is shut down:
    /// this send, every later one and the reading thread's next read fail with `.disconnected`
    /// saying so. Without a timeout, waits as long as it takes.
    public func send(_ request: Request, timeout: Duration? = nil) throws(ScrollClientError) {
        var line: [UInt8] = []
        RequestEncoder.encode(request, into: &line)
        line.append(UInt8(ascii: "\n"))
        let deadline = timeout.map { ContinuousClock.now.advanced(by: $0) }
        // Non-blocking per call, not per descriptor (O_NONBLOCK): the reading thread blocks in
        // poll(2) on the same descriptor and must keep doing so.
        let flags = Int32(MSG_NOSIGNAL) | (deadline == nil ? 0 : Int32(MSG_DONTWAIT))
        try sending.withLock { (cut: inout ScrollClientError?) throws(ScrollClientError) in
            if let cut { throw cut }
            var offset = 0
            while offset < line.count {
                let n = line[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, flags) }
                if n >= 0 {
                    offset += n
                    continue
                }
                let code = errno
                switch code {
                case EINTR:
                    continue
                case EAGAIN:
                    guard let deadline, let timeout else { continue }
                    if try waitUntilWritable(until: deadline) { continue }
                    let operation = request.operation.name, seconds = Self.seconds(timeout)
                    guard offset == 0 else {
                        let reason = ScrollClientError.disconnected(
                            "scrolld took only part of a request (\(operation)) within \(seconds) s; the connection cannot go on"
                        )
                        cut = reason
                        shutdown()
                        throw reason
                    }
                    throw .timeout(operation: operation, seconds: seconds)
                case EPIPE, ECONNRESET:
                    throw closed
                default:
                    throw .disconnected("cannot send to scrolld: \(String(cString: strerror(code)))")
                }
            }
        }
    }

    /// poll(2)'s timeout for `deadline`: the milliseconds left, rounded up so that a wake-up
    /// is never early; nil once it has passed.
    private static func pollTimeout(until deadline: ContinuousClock.Instant) -> Int32? {
        let remaining = ContinuousClock.now.duration(to: deadline)
        guard remaining > .zero else { return nil }
        let (seconds, attoseconds) = remaining.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }

    /// Whether the socket can take more before `deadline` (an error on it counts: the next
    /// send reports it).
    private func waitUntilWritable(until deadline: ContinuousClock.Instant) throws(ScrollClientError) -> Bool {
        while true {
            guard let wait = Self.pollTimeout(until: deadline) else { return false }
            var descriptor = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            let ready = poll(&descriptor, 1, wait)
            let code = errno
            if ready > 0 { return true }
            if ready < 0 && code != EINTR {
                throw .disconnected("cannot send to scrolld: \(String(cString: strerror(code)))")
            }
        }
    }

    /// What the daemon said before it closed the connection, if it said why: a refused uid gets
    /// a `forbidden` line and the close, which can come before this client has sent anything,
    /// and then the send fails with EPIPE — the line, still buffered, tells the real reason.
    private func reasonForClosing() -> ScrollClientError? {
        let deadline = ContinuousClock.now.advanced(by: .milliseconds(200))
        while let line = try? nextLine(until: deadline) {
            if let message = try? decode(line), case .error(let code, let text, nil) = message.reply {
                return Self.failure(code: code, message: text)
            }
        }
        return nil
    }

    /// Sends `operation` and waits up to `timeout` for the reply with its id, skipping every
    /// other line (broadcasts, the welcome). An error reply is thrown as its one-line reason.
    public func request(_ operation: Operation, timeout: Duration) throws(ScrollClientError) -> Message {
        let id = try send(operation)
        return try reply(to: id, operation: operation, timeout: timeout)
    }

    /// The reply to the request `id`, within `timeout` from now.
    public func reply(to id: RequestID, operation: Operation, timeout: Duration) throws(ScrollClientError) -> Message {
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            guard let line = try nextLine(until: deadline) else {
                throw .timeout(operation: operation.name, seconds: Self.seconds(timeout))
            }
            let message = try decode(line)
            switch message.reply {
            case .error(let code, let text, let replyID) where replyID == id || replyID == nil:
                // An error without id is about the connection itself (forbidden, too_large).
                throw Self.failure(code: code, message: text)
            default:
                if message.reply.id == id { return message }
            }
        }
    }

    /// The next line, however long it takes (a follower's loop).
    public func nextMessage() throws(ScrollClientError) -> Message {
        while true {
            if let line = try nextLine(until: nil) { return try decode(line) }
        }
    }

    /// Decodes a line, and remembers a welcome. A `type` this client does not know is
    /// ``Reply/unknown(type:)`` (a newer daemon may say more); a line that is not JSON, or a
    /// known type without what it requires, is no daemon this client can talk to.
    public func decode(_ line: [UInt8]) throws(ScrollClientError) -> Message {
        var text = line
        if text.last == UInt8(ascii: "\r") { text.removeLast() }
        let reply: Reply
        do {
            reply = try ReplyDecoder.decode(text)
        } catch {
            throw .protocolViolation("scrolld sent a line this client cannot read (\(error.message)): \(Self.quoted(line))")
        }
        if case .welcome(_, let server, _) = reply { self.server = server }
        return Message(line: line, reply: reply)
    }

    /// Up to 200 bytes of a line from the daemon, control characters escaped: one line on a
    /// terminal, whatever it held.
    public static func quoted(_ line: [UInt8]) -> String {
        let shown = String(decoding: line.prefix(200), as: UTF8.self).unicodeScalars.map { scalar in
            scalar.value < 0x20 || scalar.value == 0x7F ? "\\u{\(String(scalar.value, radix: 16))}" : String(scalar)
        }.joined()
        return line.count > 200 ? shown + "... (\(line.count) bytes)" : shown
    }

    /// A daemon's error line as an error: `forbidden` (this uid refused) as a permission.
    public static func failure(code: String, message: String) -> ScrollClientError {
        ScrollClientError.fromDaemon(code: code, message: message)
    }

    // MARK: Lines

    /// Whether a whole line is already buffered, so that `nextLine` returns without waiting.
    public var hasBufferedLine: Bool {
        buffer[scanned...].contains(UInt8(ascii: "\n"))
    }

    /// The next line without its newline; nil when `deadline` passes first (nil: wait for
    /// ever). The daemon closing the connection is a failure.
    public func nextLine(until deadline: ContinuousClock.Instant?) throws(ScrollClientError) -> [UInt8]? {
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
                throw .protocolViolation("scrolld sent a line longer than \(Self.maximumLineLength) bytes")
            }
            var wait: Int32 = -1
            if let deadline {
                guard let left = Self.pollTimeout(until: deadline) else { return nil }
                wait = left
            }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, wait)
            let code = errno
            if ready < 0 {
                if code == EINTR { continue }
                throw .disconnected("cannot read from scrolld: \(String(cString: strerror(code)))")
            }
            if ready == 0 { continue }
            try receive()
        }
    }

    private func receive() throws(ScrollClientError) {
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
            throw .disconnected("cannot read from scrolld: \(String(cString: strerror(code)))")
        }
        // The end of the stream: the daemon's, or this side's after a line was cut.
        throw sending.withLock { $0 } ?? closed
    }

    private var closed: ScrollClientError {
        .disconnected("scrolld closed the connection (\(path))")
    }

    /// Stops both directions: a thread blocked reading sees the end of the stream.
    public func shutdown() {
        _ = Glibc.shutdown(fd, Int32(SHUT_RDWR))
    }

    /// `5`, `0.25`: a duration as a user wrote it.
    public static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let millis = Int(attoseconds / 1_000_000_000_000_000)
        guard millis > 0 else { return String(seconds) }
        var fraction = String(millis)
        fraction = String(repeating: "0", count: 3 - fraction.count) + fraction
        while fraction.hasSuffix("0") { fraction.removeLast() }
        return "\(seconds).\(fraction)"
    }
}
