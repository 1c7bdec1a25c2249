import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A file that does not start with `{` is taken for a `libinput debug-events` transcript
/// (Sources/scrolld/Replay.swift): of its first hundred lines only their starts are kept to
/// tell it from a mistaken file (they were kept whole, as Strings: gigabytes for lines of
/// 250 MiB), and a transcript, imported whole, is refused past 1 GiB.
@Suite("scrolld replay: what a transcript may cost", .serialized)
struct TranscriptMemoryTests {
    /// A sparse file of `count` lines of `length` NUL bytes each: no disk, and not a log.
    static func nulLines(_ count: Int, length: Int) throws -> String {
        let path = try Scrolld.temporaryFile("", name: "nul-lines.txt")
        let fd = open(path, O_WRONLY | O_CLOEXEC)
        #expect(fd >= 0)
        defer { close(fd) }
        for line in 1...count {
            var newline = UInt8(ascii: "\n")
            #expect(pwrite(fd, &newline, 1, off_t(line * (length + 1) - 1)) == 1)
        }
        return path
    }

    /// Runs `scrolld ARGUMENTS` to its end with its output discarded; its status and its peak
    /// resident memory (its own, from wait4: other tests' processes do not count), bytes.
    static func peakMemory(_ arguments: [String]) throws -> (status: Int32, peak: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([Scrolld.binary.path] + arguments).map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawn(&pid, Scrolld.binary.path, &actions, nil, argv, environ)
        guard spawned == 0 else { throw HarnessError("posix_spawn: \(String(cString: strerror(spawned)))") }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        return ((status >> 8) & 0xFF, usage.ru_maxrss * 1024)
    }

    /// Twenty-four lines of 32 MiB: refused as no event log (65), holding one line's buffer
    /// and its growth (a few times 32 MiB) rather than all 768 MiB of them. The bound lies far
    /// from both: one line's buffers measured up to 4 times the line, what CI's machine showed.
    @Test func theFirstLinesAreNotKeptWhole() throws {
        let path = try Self.nulLines(24, length: 32 << 20)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, peak) = try Self.peakMemory(["replay", path])
        #expect(status == 65)
        #expect(peak < 400 << 20, "peak resident memory \(peak >> 20) MiB")
    }

    /// A transcript past 1 GiB is refused with 65, saying so.
    @Test func aTranscriptLargerThanOneGibibyteIsRefused() throws {
        let path = try Self.nulLines(5, length: 250 << 20)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = try Scrolld.run(["replay", path], limit: 600)
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr == "scrolld: \(path): libinput debug-events transcript larger than 1024 MiB, more than is imported\n", "\(result.stderr)")
    }
}
