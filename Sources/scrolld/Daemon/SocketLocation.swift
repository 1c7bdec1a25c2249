import ScrollConfig
import ScrollProtocol
import SystemPackage
#if canImport(Glibc)
import Glibc
#endif

/// Where the daemon listens and how the path is made safe to bind (docs/design.md §7): the default
/// `$XDG_RUNTIME_DIR/scrolld/scrolld.sock` in a 0700 directory, a stale socket file replaced,
/// a live daemon on the same path detected and reported instead of stolen from, and a
/// directory that another user could tamper with refused.
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
        UnixSocketAddress.defaultPath(environment: environment)
    }

    /// Creates the parent directory (0700 when it is ours to create), checks that no other user
    /// can replace what is in it, and removes a stale socket file left by a daemon that died.
    /// Throws when a live daemon answers on `path`.
    ///
    /// `privateDirectory`: the directory is the daemon's own (the default path's `scrolld` or
    /// `scrolld-UID`): it must belong to this uid and is kept at 0700. Otherwise (`--socket`,
    /// `daemon.socket`) it must belong to this uid or root and must not be writable by others
    /// unless it is sticky, like /tmp.
    static func prepare(_ path: String, privateDirectory: Bool) throws {
        let file = FilePath(path)
        guard let parent = file.removingLastComponent().string.nilIfEmpty else {
            throw Unusable(path: path, reason: "no directory")
        }
        if let problem = DaemonSettings.socketPathLengthProblem(path) { throw Unusable(path: path, reason: problem) }
        if mkdir(parent, 0o700) == 0 {
            // Freshly made: exactly 0700 whatever the umask.
            chmod(parent, 0o700)
        } else if errno != EEXIST {
            throw Unusable(path: path, reason: "cannot create \(parent): \(String(cString: strerror(errno)))")
        }
        try checkDirectory(parent, path: path, privateDirectory: privateDirectory)
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw Unusable(path: path, reason: "a file that is not a socket is in the way")
        }
        if isServed(path) { throw AlreadyRunning(path: path) }
        unlink(path)
    }

    /// A directory another uid owns, or may write into, lets that uid remove the socket and put
    /// its own in its place, where clients would talk to it instead of scrolld.
    static func checkDirectory(_ parent: String, path: String, privateDirectory: Bool) throws {
        var info = stat()
        // stat follows a symlink on purpose: what matters is who owns the directory reached.
        guard stat(parent, &info) == 0 else {
            throw Unusable(path: path, reason: "cannot examine \(parent): \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            throw Unusable(path: path, reason: "\(parent) is not a directory")
        }
        let uid = getuid()
        let mode = info.st_mode & 0o7777
        if privateDirectory {
            guard info.st_uid == uid else {
                throw Unusable(path: path, reason: "\(parent) belongs to uid \(info.st_uid), not to this daemon's uid \(uid); remove it")
            }
            if mode & 0o077 != 0 {
                // Ours, but opened up (by hand, or an old version): private again.
                guard chmod(parent, 0o700) == 0 else {
                    throw Unusable(path: path, reason: "cannot make \(parent) private (mode \(octal(mode))): \(String(cString: strerror(errno)))")
                }
            }
            return
        }
        guard info.st_uid == uid || info.st_uid == 0 else {
            throw Unusable(path: path, reason: "\(parent) belongs to uid \(info.st_uid); only this uid (\(uid)) or root may own the socket's directory")
        }
        if mode & 0o022 != 0 && mode & S_ISVTX == 0 {
            throw Unusable(path: path, reason: "\(parent) is writable by other users (mode \(octal(mode))) and not sticky: anyone could replace the socket")
        }
    }

    static func octal(_ mode: mode_t) -> String { "0" + String(mode, radix: 8) }

    /// A listening-ready Unix socket bound at `path`, created 0600: the mode is set on the
    /// socket before bind(2), which gives it to the file, so no process-wide umask is involved
    /// (the daemon may bind again later, with other threads running).
    static func bind(_ path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard fd >= 0 else { throw Unusable(path: path, reason: "socket: \(String(cString: strerror(errno)))") }
        guard let address = UnixSocketAddress(path: path) else {
            close(fd)
            throw Unusable(path: path, reason: "a socket path is 1 to \(UnixSocketAddress.maximumPathLength) bytes long")
        }
        let bound = fchmod(fd, 0o600) == 0 && address.withSockAddr { Glibc.bind(fd, $0, $1) } == 0
        guard bound else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Unusable(path: path, reason: reason)
        }
        return fd
    }

    /// The identity of the file at `path`, to tell our socket from one put there later.
    static func identity(of path: String) -> (dev_t, ino_t)? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        return (info.st_dev, info.st_ino)
    }

    /// Whether something accepts connections on `path`.
    static func isServed(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard let address = UnixSocketAddress(path: path) else { return false }
        return address.withSockAddr { connect(fd, $0, $1) } == 0
    }
}

extension String {
    var nilIfEmpty: String? { isEmpty ? nil : self }
}
