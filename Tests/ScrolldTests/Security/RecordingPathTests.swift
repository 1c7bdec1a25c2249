import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A recording goes only to a regular file (Sources/scrolld/Daemon/RecordingFile.swift): the
/// loop writes it, and a FIFO whose reader stops reading blocked that write, and the daemon
/// with it, for good (SIGTERM included); a FIFO with no reader blocked the open, before the
/// socket existed. Refused at start, as the configuration file's reader refuses a FIFO.
@Suite("scrolld run: where a recording may go", .serialized)
struct RecordingPathTests {
    static let usage = "Usage: scrolld run <options>\n  See 'scrolld run --help' for more information.\n"
    static let why = "not a regular file (a pipe or terminal that stops reading would block the daemon)"

    static func fifo() throws -> String {
        let path = try Scrolld.temporaryFile("", name: "recording.fifo")
        try FileManager.default.removeItem(atPath: path)
        #expect(mkfifo(path, 0o600) == 0)
        return path
    }

    /// `--record FIFO` is a usage error naming the path, whether a reader holds the FIFO open
    /// (one that never reads) or none does (the open would wait for one).
    @Test func aFIFOGivenToRecordIsAUsageErrorWithOrWithoutAReader() throws {
        let path = try Self.fifo()
        let alone = try Scrolld.runDaemon(["--record", path], limit: 60)
        #expect(alone.status == 64, "\(alone.stderr)")
        #expect(alone.stderr.hasSuffix("Error: cannot record to \(path): \(Self.why)\n" + Self.usage), "\(alone.stderr)")

        let reader = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        #expect(reader >= 0)
        defer { close(reader) }
        let read = try Scrolld.runDaemon(["--record", path], limit: 60)
        #expect(read.status == 64, "\(read.stderr)")
        #expect(read.stderr.hasSuffix("Error: cannot record to \(path): \(Self.why)\n" + Self.usage), "\(read.stderr)")
        #expect(!read.stderr.contains("listening on"), "\(read.stderr)")
    }

    /// `--record /dev/stdout` when standard output is a pipe (as the tests run it) is refused
    /// too: a `| slow-reader` would block the daemon as the FIFO did.
    @Test func standardOutputIntoAPipeIsRefused() throws {
        let result = try Scrolld.runDaemon(["--record", "/dev/stdout"], limit: 60)
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.hasSuffix("Error: cannot record to /dev/stdout: \(Self.why)\n" + Self.usage), "\(result.stderr)")
    }

    /// `daemon.record` naming a FIFO is the configuration's error (EX_CONFIG), said the same way.
    @Test func aFIFOInDaemonRecordStopsTheDaemonWithEXCONFIG() throws {
        let path = try Self.fifo()
        let config = try Scrolld.temporaryFile("[daemon]\nrecord = \"\(path)\"\n", name: "scrolld.toml")
        let result = try Scrolld.runDaemon([], config: config, limit: 60)
        #expect(result.status == 78, "\(result.stderr)")
        #expect(result.stderr.contains("scrolld: critical: daemon.record: cannot record to \(path): \(Self.why)\n"), "\(result.stderr)")
    }

    /// A regular file that exists is truncated and recorded into, as before.
    @Test func aRegularFileIsTruncatedAndRecordedInto() throws {
        let path = try Scrolld.temporaryFile(String(repeating: "stale\n", count: 1000), name: "session.scrolllog")
        let daemon = try DaemonProcess(arguments: ["--record", path])
        #expect(daemon.waitForLog("recording the session to \(path)"))
        #expect(daemon.stop() == 0)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(text.hasPrefix("{"), "\(text.prefix(80))")
        #expect(!text.contains("stale"), "\(text.prefix(200))")
    }
}
