import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The daemon's replay logs (`run --replay`, `run --fallback-replay`) are read whole and kept,
/// so only a regular file of at most 1 GiB (Run.replayLimit in Sources/scrolld/Run.swift):
/// `/dev/zero` grew the daemon by gigabytes a second before any socket existed, and a FIFO
/// with no writer blocked its start for good.
@Suite("scrolld run: what a replay log may be", .serialized)
struct DaemonReplayFileTests {
    /// A FIFO and a device are refused at once with EX_NOINPUT, the path named, before the
    /// daemon listens.
    @Test func aFIFOOrADeviceIsRefusedWithTheReason() throws {
        let fifo = try Scrolld.temporaryFile("", name: "replay.fifo")
        try FileManager.default.removeItem(atPath: fifo)
        #expect(mkfifo(fifo, 0o600) == 0)
        let fromFIFO = try Scrolld.runDaemon(["--fallback-replay", fifo, "--device", "/dev/null"], limit: 60)
        // Stops here against a daemon that waits for a writer, before it reads /dev/zero.
        try #require(fromFIFO.status == 66, "\(fromFIFO.stderr)")
        #expect(fromFIFO.stderr.contains("scrolld: critical: cannot open \(fifo): not a regular file\n"), "\(fromFIFO.stderr)")

        let zeros = try Scrolld.runDaemon(["--replay", "/dev/zero"], limit: 60)
        #expect(zeros.status == 66, "\(zeros.stderr)")
        #expect(zeros.stderr.contains("scrolld: critical: cannot open /dev/zero: not a regular file\n"), "\(zeros.stderr)")
        #expect(!zeros.stderr.contains("listening on"), "\(zeros.stderr)")
    }

    /// A log larger than 1 GiB is refused with EX_DATAERR before it is read (the file here is
    /// sparse: it takes no disk).
    @Test func aLogLargerThanTheLimitIsRefusedBeforeItIsRead() throws {
        let path = try Scrolld.temporaryFile("", name: "huge.scrolllog")
        #expect(truncate(path, (1 << 30) + 1) == 0)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Scrolld.runDaemon(["--replay", path], limit: 120)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains("scrolld: critical: cannot replay \(path): larger than 1024 MiB, more than the daemon replays\n"), "\(result.stderr)")
    }
}
