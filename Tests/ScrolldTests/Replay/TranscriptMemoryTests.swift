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
    /// resident memory, bytes. A small python3 starts it and reports its children's `ru_maxrss`:
    /// Linux books a process's peak at `exec` from the memory it had before, and a child the
    /// test runner spawns shares the runner's (`posix_spawn` is a vfork), so the runner's own
    /// resident memory (near a gigabyte late in `make test`) would be read as scrolld's.
    static func peakMemory(_ arguments: [String]) throws -> (status: Int32, peak: Int) {
        let measure = """
            import resource, subprocess, sys
            run = subprocess.run(sys.argv[1:], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            print(run.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
            """
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", measure, Scrolld.binary.path] + arguments
        let output = Pipe()
        python.standardOutput = output
        try python.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        python.waitUntilExit()
        let fields = String(decoding: data, as: UTF8.self).split(whereSeparator: \.isWhitespace)
        guard python.terminationStatus == 0, fields.count == 2, let status = Int32(fields[0]), let kibibytes = Int(fields[1]) else {
            throw HarnessError("python3 could not measure scrolld: \(String(decoding: data, as: UTF8.self))")
        }
        return (status, kibibytes * 1024)
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
