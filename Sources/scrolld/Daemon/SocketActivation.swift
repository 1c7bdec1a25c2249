import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// Socket activation (`sd_listen_fds_with_names(3)`): the listening socket systemd passed to
/// this process, if it passed one (`$LISTEN_FDS` and `$LISTEN_PID` naming this process).
enum SocketActivation {
    /// The first descriptor passed that is not one of the file descriptor store's (DESIGN §16:
    /// after a restart, the connections and the session come back beside scrolld.socket's one),
    /// and its `FileDescriptorName=`.
    static func listeningSocket() -> (fd: Int32, name: String)? {
        var names: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?
        let count = sd_listen_fds_with_names(0, &names)
        defer {
            if let names {
                for index in 0..<Int(max(count, 0)) { free(names[index]) }
                free(names)
            }
        }
        for index in 0..<Int(max(count, 0)) {
            let name = names?[index].map { String(cString: $0) } ?? "unknown"
            if !FileDescriptorStore.isStored(name: name) { return (SD_LISTEN_FDS_START + Int32(index), name) }
        }
        return nil
    }
}
