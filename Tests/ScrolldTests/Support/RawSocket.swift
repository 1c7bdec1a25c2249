import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Plain Unix stream sockets for tests that need many of them, or need to misbehave: non-blocking
/// connects, half-closes, resets.
enum RawSocket {
    struct Failure: Error, CustomStringConvertible {
        let errno: Int32
        var description: String { String(cString: strerror(errno)) }
    }

    /// A connected socket (non-blocking when asked); EAGAIN means the listen backlog is full.
    static func connect(_ path: String, nonblocking: Bool = false) -> Result<Int32, Failure> {
        var type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        if nonblocking { type |= Int32(SOCK_NONBLOCK.rawValue) }
        let fd = socket(AF_UNIX, type, 0)
        guard fd >= 0 else { return .failure(Failure(errno: errno)) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            return .failure(Failure(errno: code))
        }
        return .success(fd)
    }

    /// A Unix socket of `type` (stream, datagram) bound to `path`; a stream one listening.
    static func bound(_ path: String, type: __socket_type) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(type.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: Array(path.utf8)) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, type != SOCK_STREAM || listen(fd, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw HarnessError("cannot bind \(path): \(reason)")
        }
        return fd
    }

    /// Connects, retrying while the backlog is full, until `timeout` seconds have passed.
    static func connectRetrying(_ path: String, nonblocking: Bool, timeout: Double = 60) throws -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            switch connect(path, nonblocking: nonblocking) {
            case .success(let fd): return fd
            case .failure(let failure) where failure.errno == EAGAIN && Date() < deadline: usleep(1000)
            case .failure(let failure): throw HarnessError("connect \(path): \(failure)")
            }
        }
    }

    /// Sends all of `text` on a blocking socket, or as much as fits on a non-blocking one;
    /// the bytes sent.
    @discardableResult
    static func send(_ fd: Int32, _ text: String) -> Int {
        send(fd, Array(text.utf8))
    }

    @discardableResult
    static func send(_ fd: Int32, _ bytes: [UInt8]) -> Int {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { break }
            offset += n
        }
        return offset
    }

    /// Whether the peer has closed the connection, without reading what `fd` still holds
    /// (POLLHUP: a Unix stream socket reports it once the other end is gone).
    static func peerClosed(_ fd: Int32) -> Bool {
        let rdhup: Int16 = 0x2000  // POLLRDHUP, a _GNU_SOURCE name Glibc's module leaves out
        var polled = pollfd(fd: fd, events: rdhup, revents: 0)
        return poll(&polled, 1, 0) > 0 && polled.revents & (Int16(POLLHUP) | rdhup) != 0
    }

    /// SO_LINGER {on, 0}: close(2) discards what is unsent. (On a Unix socket the peer sees
    /// ECONNRESET when the closing side leaves data unread, which is what these tests do.)
    static func setLingerZero(_ fd: Int32) {
        var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
    }
}
