import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A blocking Unix-socket client that reads JSON lines, waiting for each with a deadline.
///
/// The deadlines only catch a hang (30 s unless a test asks otherwise): a reply or a state that
/// is due arrives however loaded the machine is, so no test fails for being slow. A test that
/// expects *nothing* to arrive does not wait for a while and look: it asks for a later reply and
/// checks what came before it (`linesBeforeReply`), which the daemon's order makes exact.
final class LineClient {
    /// How many bytes, at most, a subscriber's socket held unread before this client read it,
    /// for it to count as never full. The daemon coalesces (latest wins) only while a
    /// subscriber's socket takes no more, and a full Unix socket holds the most overhead, so
    /// the least data, when it is made of the shortest writes: one state line each, 250 bytes
    /// at the least. Measured here on a socket pair (the daemon's sockets get the same default
    /// send buffer): about 41 KB with Linux's default 212 992-byte `wmem_default`. A reader
    /// that never saw that much waiting was never coalesced, so it must have every state; one
    /// that did may have been.
    static let neverFullBelow: Int = {
        var pair: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else { return 41_000 }
        defer { Glibc.close(pair[0]); Glibc.close(pair[1]) }
        let line = [UInt8](repeating: UInt8(ascii: "x"), count: 250)
        while line.withUnsafeBytes({ Glibc.send(pair[0], $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 {}
        var queued: Int32 = 0
        return ioctl(pair[1], UInt(FIONREAD), &queued) == 0 ? Int(queued) : 41_000
    }()

    /// -1 once closed: closing a number twice could close a descriptor that another test (or
    /// libudev, in this same process) has since been given.
    private(set) var fd: Int32
    private var buffer: [UInt8] = []
    private let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: 1 << 16, alignment: 1)
    /// Where the unread bytes of `buffer` start, and where to look for the next newline.
    private var start = 0
    private var scanned = 0
    /// The most bytes seen waiting in the socket at once (FIONREAD before a read, or what one
    /// read returned).
    private(set) var mostQueued = 0

    /// Whether the socket may have filled (so the daemon may have coalesced states for it).
    var mayHaveFilled: Bool { mostQueued >= Self.neverFullBelow }
    /// The daemon closed the connection (a read returned 0 or failed).
    private(set) var reachedEnd = false
    /// How the connection ended, when it has: "end of file", or the error `recv` gave.
    private(set) var endReason: String?

    /// `mostQueued` since the last call, for telling which stretch of a stream may have been
    /// coalesced.
    func takeMostQueued() -> Int {
        defer { mostQueued = 0 }
        return mostQueued
    }

    init(path: String) throws {
        // Close-on-exec: tests run in parallel, and a process another test spawns must not
        // inherit this connection (the daemon would see it open after this test closed it).
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close()
            throw HarnessError("connect \(path): \(String(cString: strerror(code)))")
        }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    deinit {
        close()
        chunk.deallocate()
    }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    func send(_ object: [String: Any]) {
        send(String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
    }

    /// The next line, or nil at EOF or after `timeout` seconds without one.
    func readLine(timeout: Double = 30) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            let newline = buffer.withUnsafeBytes { bytes -> Int? in
                guard scanned < bytes.count, let found = memchr(bytes.baseAddress! + scanned, 0x0A, bytes.count - scanned) else { return nil }
                return bytes.baseAddress!.distance(to: UnsafeRawPointer(found))
            }
            if let newline {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                scanned = start
                if start > 1 << 16 {
                    buffer.removeSubrange(..<start)
                    scanned -= start
                    start = 0
                }
                return line
            }
            scanned = buffer.count
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var queued: Int32 = 0
            if ioctl(fd, UInt(FIONREAD), &queued) == 0 { mostQueued = max(mostQueued, Int(queued)) }
            let n = recv(fd, chunk.baseAddress, chunk.count, 0)
            if n <= 0 {
                reachedEnd = true
                endReason = n == 0 ? "end of file" : "recv: \(String(cString: strerror(errno)))"
                return nil
            }
            mostQueued = max(mostQueued, n)
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: chunk[..<n]))
        }
    }

    func readJSON(timeout: Double = 30) -> [String: Any]? {
        guard let line = readLine(timeout: timeout) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Reads lines until one of `type` arrives (skipping broadcasts in between).
    func read(type: String, timeout: Double = 30) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let object = readJSON(timeout: deadline.timeIntervalSinceNow) else { return nil }
            if object["type"] as? String == type { return object }
        }
        return nil
    }

    /// Sends a request and returns the reply carrying its id.
    func request(_ object: [String: Any], id: Int, timeout: Double = 30) -> [String: Any]? {
        linesBeforeReply(to: object, id: id, timeout: timeout).reply
    }

    /// Sends a request; returns its reply and every line that came before it.
    ///
    /// The daemon handles requests and publishes states one at a time, and a state published
    /// for a subscription without `rate` whose socket has room is written at once, before the
    /// daemon handles anything else. So a test that expects no state after some request (sent
    /// by any client, its reply received) sends this client's own later request, a `ping`, and
    /// finds no state before the reply: none was published, without waiting to see.
    func linesBeforeReply(to object: [String: Any], id: Int, timeout: Double = 30) -> (reply: [String: Any]?, before: [[String: Any]]) {
        var object = object
        object["id"] = id
        send(object)
        var before: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let line = readJSON(timeout: deadline.timeIntervalSinceNow) else { break }
            if (line["id"] as? NSNumber)?.intValue == id { return (line, before) }
            before.append(line)
        }
        return (nil, before)
    }

    /// Whether the server has closed the connection (EOF within `timeout`).
    func isClosed(timeout: Double = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return true }
        }
        return false
    }
}
