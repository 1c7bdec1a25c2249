#if canImport(Glibc)
import Glibc
#endif

/// Plain blocking Unix stream sockets, the way any client of scrolld connects.
enum UnixSocket {
    static func address(_ path: String) throws -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { throw HarnessError("socket path too long: \(path)") }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
            raw[bytes.count] = 0
        }
        return address
    }

    static func connect(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError.system("socket") }
        var address = try address(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close(fd)
            throw HarnessError.system("connect \(path)", errno: code)
        }
        return fd
    }

    static func listen(_ path: String, backlog: Int32 = 1024) throws -> Int32 {
        unlink(path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError.system("socket") }
        var address = try address(path)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw HarnessError.system("bind \(path)") }
        guard Glibc.listen(fd, backlog) == 0 else { throw HarnessError.system("listen \(path)") }
        return fd
    }

    /// Waits until something accepts connections at `path` (a daemon starting up).
    static func waitUntilConnectable(_ path: String, timeout: Double, while alive: () -> Bool) throws {
        let deadline = Clock.nanoseconds() + Int64(timeout * 1e9)
        while true {
            if let fd = try? connect(path) {
                close(fd)
                return
            }
            guard alive() else { throw HarnessError("the process serving \(path) exited before it accepted connections") }
            guard Clock.nanoseconds() < deadline else { throw HarnessError("nothing accepted connections at \(path) within \(timeout) s") }
            Clock.sleep(seconds: 0.02)
        }
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, bytes.count - offset) }
            if n < 0 {
                if errno == EINTR { continue }
                throw HarnessError.system("write")
            }
            offset += n
        }
    }

    /// Reads one line (blocking), keeping what came after it in `buffer`.
    static func readLine(_ fd: Int32, buffer: inout [UInt8]) throws -> [UInt8] {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, 4096) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { throw HarnessError(n == 0 ? "the server closed the connection" : "read: \(String(cString: strerror(errno)))") }
            buffer += chunk[0..<n]
        }
    }

    static func setNonBlocking(_ fd: Int32) {
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }
}
