#if canImport(Glibc)
import Glibc
#endif

extension ScrollClientError {
    /// Why `connect(2)` to the socket at `path` failed with `code`, in the user's words. A path
    /// that is some other kind of file (a regular file, a directory, a FIFO) is refused by the
    /// kernel as if nothing listened there; it is named for what it is.
    static func connecting(to path: String, failedWith code: Int32) -> ScrollClientError {
        switch code {
        case ENOENT, ENOTDIR: return .notRunning(path: path, reason: "no socket at")
        case ECONNREFUSED:
            var info = stat()
            if stat(path, &info) == 0, info.st_mode & S_IFMT != S_IFSOCK {
                return .notRunning(path: path, reason: "not a socket but \(kind(info.st_mode)):")
            }
            return .notRunning(path: path, reason: "nothing listens on")
        case EACCES, EPERM: return .permissionDenied("cannot connect to \(path): \(String(cString: strerror(code)))")
        default: return .disconnected("cannot connect to \(path): \(String(cString: strerror(code)))")
        }
    }

    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "another kind of file"
        }
    }
}
