import CScrolldShim
import Logging
import ScrollDaemon
#if canImport(Glibc)
import Glibc
#endif

/// The memfd the session is kept in (docs/design.md §16), mapped shared: every write to the mapping
/// is a write to the file systemd holds, so keeping it current costs no system call. It grows
/// (ftruncate, mapped again) only when the session outgrows it.
///
/// Unchecked `Sendable`: it is made at start-up and then used only on the event loop.
final class SessionMemoryFile: @unchecked Sendable {
    let fd: Int32
    private(set) var mapping: UnsafeMutableRawBufferPointer
    /// Whether the file is sealed against shrinking (F_SEAL_SHRINK): a file cut short under a
    /// mapping makes the next access to what was cut off a SIGBUS, so only a sealed one is kept
    /// in use. Anyone holding it (systemd, a process of the user through /proc/PID/fd) may still
    /// write into it or grow it: what is read back is checked (``SnapshotMemory/read(_:)``).
    let sealed: Bool

    private init(fd: Int32, mapping: UnsafeMutableRawBufferPointer, sealed: Bool) {
        self.fd = fd
        self.mapping = mapping
        self.sealed = sealed
    }

    /// A new memfd of `size` bytes, sealed against shrinking, mapped.
    static func create(size: Int) -> SessionMemoryFile? {
        let fd = CScrolldMemfdCreate("scrolld-session")
        guard fd >= 0 else { return nil }
        guard ftruncate(fd, off_t(size)) == 0, CScrolldSealAgainstShrinking(fd) == 0, let mapping = map(fd, size: size) else {
            close(fd)
            return nil
        }
        return SessionMemoryFile(fd: fd, mapping: mapping, sealed: true)
    }

    /// Why a descriptor the store passed back cannot be the session's file.
    struct Refusal: Error {
        let reason: String
    }

    /// The memfd a previous process left in the store, sealed against shrinking first (before
    /// anything is read through the mapping) and mapped whole; or why it cannot be: not a
    /// regular file, empty, not mappable for writing. One that cannot be sealed (a memfd made
    /// without MFD_ALLOW_SEALING by an earlier scrolld, a regular file) is read all the same,
    /// and then left for a new one (``sealed``).
    static func adopt(_ fd: Int32) -> Result<SessionMemoryFile, Refusal> {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return .failure(Refusal(reason: "fstat: \(String(cString: strerror(errno)))")) }
        guard info.st_mode & S_IFMT == S_IFREG else { return .failure(Refusal(reason: "it is \(kind(info.st_mode)), not a memfd")) }
        guard info.st_size > 0 else { return .failure(Refusal(reason: "it is empty")) }
        let sealed = CScrolldSealAgainstShrinking(fd) == 0
        guard let mapping = map(fd, size: Int(info.st_size)) else {
            return .failure(Refusal(reason: "it cannot be mapped for reading and writing: \(String(cString: strerror(errno)))"))
        }
        return .success(SessionMemoryFile(fd: fd, mapping: mapping, sealed: sealed))
    }

    /// What a file of mode `mode` is, for a refusal.
    private static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: return "a directory"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        default: return "not a regular file"
        }
    }

    /// Unmaps and closes the file (one left for a new one).
    func release() {
        munmap(mapping.baseAddress, mapping.count)
        close(fd)
    }

    /// Grows the file to `size` and maps it again; nil when it cannot.
    func grow(to size: Int) -> UnsafeMutableRawBufferPointer? {
        guard size > mapping.count else { return mapping }
        guard ftruncate(fd, off_t(size)) == 0, let larger = Self.map(fd, size: size) else { return nil }
        munmap(mapping.baseAddress, mapping.count)
        mapping = larger
        return larger
    }

    private static func map(_ fd: Int32, size: Int) -> UnsafeMutableRawBufferPointer? {
        let address = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
        guard let address, address != MAP_FAILED else { return nil }
        return UnsafeMutableRawBufferPointer(start: address, count: size)
    }
}
