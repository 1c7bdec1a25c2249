import Foundation
@testable import ScrollDesktopWatchers
import Testing

/// KDE's files are read on the watcher's thread whenever inotify says they changed: a FIFO put
/// in their place must not block it, and is read as no file.
@Suite("KDE's files as the watcher reads them")
struct KDEFileTests {
    @Test func onlyARegularFileIsRead() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrolld-kde-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("kcminputrc").path
        #expect(FileManager.default.createFile(atPath: file, contents: Data("[Mouse]\nNaturalScroll=true\n".utf8)))
        #expect(KDEWatcher.readWholeFile(file) == "[Mouse]\nNaturalScroll=true\n")
        let fifo = directory.appendingPathComponent("kdeglobals").path
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(KDEWatcher.readWholeFile(fifo) == nil)
        #expect(KDEWatcher.readWholeFile(directory.appendingPathComponent("absent").path) == nil)
    }
}
