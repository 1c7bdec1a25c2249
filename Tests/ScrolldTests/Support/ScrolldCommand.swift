import Foundation
#if canImport(Glibc)
import Glibc
#endif

extension Scrolld {
    /// Runs `scrolld ARGUMENTS` with standard output to the file at `path` (`/dev/full`: every
    /// write fails) and returns its status and standard error. A process still running after
    /// `limit` seconds is killed (status 9): a daemon that should have refused to start fails
    /// the test instead of hanging it. The limit only catches a hang; a loaded machine is slow,
    /// not wrong.
    static func run(_ arguments: [String], stdoutTo path: String = "/dev/null", limit: Double = 120, executable: URL = binary) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        let errURL = FileManager.default.temporaryDirectory.appendingPathComponent("scrolld-stderr-\(UUID().uuidString)")
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errURL) }
        let err = try FileHandle(forWritingTo: errURL)
        guard let out = FileHandle(forWritingAtPath: path) else { throw HarnessError("cannot open \(path) for writing") }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try err.close()
        try out.close()
        let pid = process.processIdentifier
        let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
        DispatchQueue.global().asyncAfter(deadline: .now() + limit, execute: watchdog)
        process.waitUntilExit()
        watchdog.cancel()
        let stderrData = (try? Data(contentsOf: errURL)) ?? Data()
        return Result(status: process.terminationStatus, stdout: Data(), stderr: String(decoding: stderrData, as: UTF8.self))
    }

    /// `run` with its socket in a fresh directory of its own (never the user's), `config` (no
    /// configuration by default) and no real-time priority, then `arguments`: for a daemon
    /// expected to refuse to start.
    static func runDaemon(_ arguments: [String], config: String = "/dev/null", limit: Double = 120) throws -> Result {
        let directory = "/tmp/sd-\(UUID().uuidString.prefix(8))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let base = ["run", "--socket", directory + "/s.sock", "--config", config, "--set", "daemon.realtime_priority=0"]
        return try run(base + arguments, limit: limit)
    }
}
