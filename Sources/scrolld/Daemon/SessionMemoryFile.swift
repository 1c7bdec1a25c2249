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

    private init(fd: Int32, mapping: UnsafeMutableRawBufferPointer) {
        self.fd = fd
        self.mapping = mapping
    }

    /// A new memfd of `size` bytes, mapped.
    static func create(size: Int) -> SessionMemoryFile? {
        let fd = CScrolldMemfdCreate("scrolld-session")
        guard fd >= 0 else { return nil }
        guard ftruncate(fd, off_t(size)) == 0, let mapping = map(fd, size: size) else {
            close(fd)
            return nil
        }
        return SessionMemoryFile(fd: fd, mapping: mapping)
    }

    /// The memfd a previous process left in the store, mapped whole (at least `minimum` bytes:
    /// a shorter one is grown, and its contents read before).
    static func adopt(_ fd: Int32) -> SessionMemoryFile? {
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0, let mapping = map(fd, size: Int(info.st_size)) else { return nil }
        return SessionMemoryFile(fd: fd, mapping: mapping)
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
