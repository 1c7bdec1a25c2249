import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// Socket activation (`sd_listen_fds_with_names(3)`): the listening socket systemd passed to
/// this process, if it passed one (`$LISTEN_FDS` and `$LISTEN_PID` naming this process).
enum SocketActivation {
    /// Every descriptor systemd passed, with its name (`FileDescriptorName=`, `FDNAME=`; "unknown"
    /// when it gave none), in order.
    static func passedDescriptors() -> [(fd: Int32, name: String)] {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = Int(max(sd_listen_fds_with_names(0, &names), 0))
        defer {
            if let names {
                for index in 0..<count { free(names[index]) }
                free(names)
            }
        }
        return (0..<count).map { index in
            (SD_LISTEN_FDS_START + Int32(index), names?[index].map { String(cString: $0) } ?? "unknown")
        }
    }

    /// The first descriptor passed that is not one of the file descriptor store's
    /// (docs/design.md §16: after a restart, the connections and the session come back beside
    /// scrolld.socket's one), and its `FileDescriptorName=`.
    static func listeningSocket() -> (fd: Int32, name: String)? {
        passedDescriptors().first { !FileDescriptorStore.isStored(name: $0.name) }
    }
}
