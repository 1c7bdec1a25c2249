import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Where the daemon listens and how the path is made safe to bind (DESIGN §7): the default
/// `$XDG_RUNTIME_DIR/scrolld/scrolld.sock` in a 0700 directory, a stale socket file replaced,
/// a live daemon on the same path detected and reported instead of stolen from.
enum SocketLocation {
    struct AlreadyRunning: Error, CustomStringConvertible {
        let path: String
        var description: String { "another scrolld is already serving \(path) (stop it first, or pass --socket)" }
    }

    struct Unusable: Error, CustomStringConvertible {
        let path: String
        let reason: String
        var description: String { "cannot use socket path \(path): \(reason)" }
    }

    static func defaultPath(environment: [String: String]) -> String {
        if let runtime = environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/scrolld/scrolld.sock"
        }
        // No runtime directory (not a logind session): a private directory of our own in /tmp.
        return "/tmp/scrolld-\(getuid())/scrolld.sock"
    }

    /// Creates the parent directory (0700 when it is ours to create), and removes a stale
    /// socket file left by a daemon that died. Throws when a live daemon answers on `path`.
    static func prepare(_ path: String) throws {
        let file = FilePath(path)
        guard let parent = file.removingLastComponent().string.nilIfEmpty else {
            throw Unusable(path: path, reason: "no directory")
        }
        guard path.utf8.count < 108 else { throw Unusable(path: path, reason: "longer than the 107 bytes a Unix socket path may have") }
        if mkdir(parent, 0o700) == 0 {
            // Freshly made: exactly 0700 whatever the umask.
            chmod(parent, 0o700)
        } else if errno != EEXIST {
            throw Unusable(path: path, reason: "cannot create \(parent): \(String(cString: strerror(errno)))")
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw Unusable(path: path, reason: "a file that is not a socket is in the way")
        }
        if isServed(path) { throw AlreadyRunning(path: path) }
        unlink(path)
    }

    /// Whether something accepts connections on `path`.
    static func isServed(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
