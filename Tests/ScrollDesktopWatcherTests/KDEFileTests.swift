import Foundation
import ScrollDesktop
@testable import ScrollDesktopWatchers
import Testing

/// KDE's files are read on the watcher's thread whenever inotify says they changed: a FIFO put
/// in their place must not block it, and one past the size limit is not read; either is
/// reported, so that the daemon's log can say why the desktop's settings are not followed.
@Suite("KDE's files as the watcher reads them")
struct KDEFileTests {
    static func directory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrolld-kde-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func onlyARegularFileIsRead() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("kcminputrc").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("[Mouse]\nNaturalScroll=true\n".utf8)))
        #expect(KDEWatcher.readWholeFile(file) == .text("[Mouse]\nNaturalScroll=true\n"))
        let fifo = directory.appendingPathComponent("kdeglobals").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(KDEWatcher.readWholeFile(fifo) == .unread("is not a regular file"))
        #expect(KDEWatcher.readWholeFile(directory.appendingPathComponent("absent").path) == .absent)
    }

    /// A file of exactly 4 MiB is read; one byte more (or a sparse 10 GiB file) is not, and
    /// the settings say which file and why.
    @Test func aFileOverFourMiBIsReportedNotRead() throws {
        let directory = try Self.directory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let head = "[KDE]\nAnimationDurationFactor=0\n"
        let kdeglobals = directory.appendingPathComponent("kdeglobals").path
        let whole = head + String(repeating: "#", count: (4 << 20) - head.utf8.count - 1) + "\n"
        #expect(FileManager.default.createFile(atPath: kdeglobals, contents: Data(whole.utf8)))
        let kcminputrc = directory.appendingPathComponent("kcminputrc").path
        #expect(KDEWatcher.read(directory.path) == DesktopSettings(desktop: .kde, reducedMotion: true, absent: [kcminputrc]))
        #expect(FileManager.default.createFile(atPath: kdeglobals, contents: Data((whole + "#").utf8)))
        #expect(FileManager.default.createFile(atPath: kcminputrc, contents: nil))
        #expect(truncate(kcminputrc, 10 << 30) == 0)
        #expect(KDEWatcher.readWholeFile(kdeglobals) == .unread("is over 4 MiB"))
        #expect(KDEWatcher.read(directory.path) == DesktopSettings(desktop: .kde, unread: [
            UnreadFile(path: kcminputrc, reason: "is over 4 MiB"), UnreadFile(path: kdeglobals, reason: "is over 4 MiB"),
        ]))
    }
}
