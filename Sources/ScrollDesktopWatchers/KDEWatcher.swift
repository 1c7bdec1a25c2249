#if canImport(Glibc)
import Glibc
#endif
import ScrollDesktop

/// KDE Plasma's settings (docs/design.md §23): `kcminputrc` and `kdeglobals` in
/// `$XDG_CONFIG_HOME` (else `~/.config`), read at start and again whenever either is written.
/// inotify watches the directory, not the files: KDE saves a file by writing a new one and
/// renaming it over the old.
public final class KDEWatcher: DesktopSettingsWatcher, @unchecked Sendable {
    public let desktop = Desktop.kde
    private let directory: String
    private var thread: WatcherThread?
    static let files = ["kcminputrc", "kdeglobals"]

    /// Watches the files in `directory` (`$XDG_CONFIG_HOME`).
    public init(directory: String) {
        self.directory = directory
    }

    /// The directory KDE keeps its files in for `environment`; nil without a home.
    public static func directory(environment: [String: String]) -> String? {
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") { return config }
        return environment["HOME"].map { $0 + "/.config" }
    }

    public func start(delivering sink: any DesktopSettingsSink) throws -> String? {
        // Not KDE's unless one of its files is there: a directory without them says nothing.
        let directory = self.directory
        guard Self.files.contains(where: { access(directory + "/" + $0, F_OK) == 0 }) else { return nil }
        let fd = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard fd >= 0 else { throw WatcherError("inotify_init1", errno) }
        let mask = UInt32(IN_CLOSE_WRITE) | UInt32(IN_MOVED_TO) | UInt32(IN_DELETE) | UInt32(IN_CREATE)
        guard inotify_add_watch(fd, directory, mask) >= 0 else {
            let code = errno
            close(fd)
            throw WatcherError("inotify_add_watch \(directory)", code)
        }
        sink.desktopSettingsChanged(Self.read(directory))
        thread = try WatcherThread.start(name: "scrolld-kde", owning: fd) { wakeFD in
            while let ready = WatcherThread.wait(for: [fd], wakeFD: wakeFD) {
                guard !ready.isEmpty, Self.drain(fd) else { continue }
                sink.desktopSettingsChanged(Self.read(directory))
            }
        }
        return "\(directory)/kcminputrc and kdeglobals, watched with inotify"
    }

    public func stop() {
        thread?.stop()
        thread = nil
    }

    static func read(_ directory: String) -> DesktopSettings {
        KDESettings.settings(
            kcminputrc: Self.readWholeFile(directory + "/kcminputrc"),
            kdeglobals: Self.readWholeFile(directory + "/kdeglobals")
        )
    }

    /// Reads every pending event; whether one was about KDE's files.
    static func drain(_ fd: Int32) -> Bool {
        var relevant = false
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = Glibc.read(fd, &buffer, buffer.count)
            guard count > 0 else { return relevant }
            var offset = 0
            // struct inotify_event { int wd; uint32_t mask, cookie, len; char name[len]; }
            while offset + 16 <= count {
                let length = Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8 | Int(buffer[offset + 14]) << 16 | Int(buffer[offset + 15]) << 24
                let name = String(decoding: buffer[(offset + 16)..<min(count, offset + 16 + length)].prefix { $0 != 0 }, as: UTF8.self)
                if files.contains(name) { relevant = true }
                offset += 16 + length
            }
        }
    }

    /// A whole file's bytes as text; nil when it cannot be read (it does not exist, or it is
    /// no regular file: a FIFO in its place would block the watcher for good).
    static func readWholeFile(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else { return nil }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
            // KDE's files are a few kilobytes; a huge one is not KDE's.
            if bytes.count > 4 << 20 { return nil }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
