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

    /// Both files' settings, which of them are there but were not read, and which are not there.
    static func read(_ directory: String) -> DesktopSettings {
        var unread: [UnreadFile] = []
        var absent: [String] = []
        func text(_ name: String) -> String? {
            let path = directory + "/" + name
            switch readWholeFile(path) {
            case .text(let text): return text
            case .absent:
                absent.append(path)
                return nil
            case .unread(let reason):
                unread.append(UnreadFile(path: path, reason: reason))
                return nil
            }
        }
        var settings = KDESettings.settings(kcminputrc: text("kcminputrc"), kdeglobals: text("kdeglobals"))
        settings.unread = unread
        settings.absent = absent
        return settings
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
                let mask = UInt32(buffer[offset + 4]) | UInt32(buffer[offset + 5]) << 8 | UInt32(buffer[offset + 6]) << 16 | UInt32(buffer[offset + 7]) << 24
                // An overflowed queue lost events, maybe about the files: read them again.
                if files.contains(name) || mask & UInt32(IN_Q_OVERFLOW) != 0 { relevant = true }
                offset += 16 + length
            }
        }
    }

    /// A file as the watcher found it: its text, not there, or there but not read, and why.
    enum FileRead: Equatable {
        case text(String)
        case absent
        case unread(String)
    }

    /// KDE's files are a few kilobytes; past this one is not KDE's, and reading it would
    /// cost the watcher's thread that much at every change.
    static let sizeLimit = 4 << 20
    static let tooLarge = "is over \(sizeLimit >> 20) MiB"

    /// A whole file's bytes as text. A file that is no regular file is not read (a FIFO in its
    /// place would block the watcher for good), nor one over ``sizeLimit``.
    static func readWholeFile(_ path: String) -> FileRead {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return errno == ENOENT ? .absent : failed("opened") }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return failed("read") }
        guard status.st_mode & S_IFMT == S_IFREG else { return .unread("is not a regular file") }
        guard status.st_size <= sizeLimit else { return .unread(tooLarge) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = Glibc.read(fd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            if count < 0 { return failed("read") }
            guard count > 0 else { break }
            bytes += chunk[0..<count]
            // It may have grown since fstat.
            if bytes.count > sizeLimit { return .unread(tooLarge) }
        }
        return .text(String(decoding: bytes, as: UTF8.self))
    }

    private static func failed(_ what: String) -> FileRead {
        .unread("cannot be \(what) (\(String(cString: strerror(errno))))")
    }
}
