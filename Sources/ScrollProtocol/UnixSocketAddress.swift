#if canImport(Glibc)
import Glibc
#endif

/// Where the wire protocol is spoken: a Unix socket's path as `sockaddr_un`, made in one place
/// for the daemon (bind, the liveness probe, sd_notify) and its clients (connect).
public struct UnixSocketAddress: Sendable {
    /// The path as given; a leading `@` names an abstract socket (as systemd writes
    /// `NOTIFY_SOCKET`).
    public let path: String
    private let bytes: [UInt8]

    /// The longest path `sun_path` holds, its terminating zero left out.
    public static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// nil when `path` is empty or longer than ``maximumPathLength`` bytes.
    public init?(path: String) {
        var bytes = Array(path.utf8)
        guard !bytes.isEmpty, bytes.count <= Self.maximumPathLength else { return nil }
        if bytes[0] == UInt8(ascii: "@") { bytes[0] = 0 }
        self.path = path
        self.bytes = bytes
    }

    /// Calls `body` with the address and its length: the whole structure for a path in the file
    /// system, the family and the name's own bytes for an abstract socket.
    public func withSockAddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> R) rethrows -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let length = bytes[0] == 0
            ? socklen_t(MemoryLayout<sa_family_t>.size + bytes.count)
            : socklen_t(MemoryLayout<sockaddr_un>.size)
        return try withUnsafePointer(to: &address) {
            try $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }

    /// The daemon's socket when none is configured: `$XDG_RUNTIME_DIR/scrolld/scrolld.sock`,
    /// else (no logind session) `/tmp/scrolld-UID/scrolld.sock`.
    public static func defaultPath(environment: [String: String], uid: uid_t = getuid()) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/scrolld/scrolld.sock"
        }
        return "/tmp/scrolld-\(uid)/scrolld.sock"
    }
}
