#if canImport(Glibc)
import Glibc
#endif

/// A program the harness starts (the daemon, the floor server, a generator), with its output
/// going to a file so a failure can be shown.
final class ChildProcess {
    let pid: pid_t
    let name: String
    let logPath: String
    private var exitStatus: Int32?

    /// Starts `arguments[0]` with its stdout and stderr appended to `logPath` (stdout to
    /// `stdoutPath` when given).
    init(_ arguments: [String], logPath: String, stdoutPath: String? = nil) throws {
        name = arguments[0]
        self.logPath = logPath
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath ?? logPath, O_WRONLY | O_CREAT | (stdoutPath == nil ? O_APPEND : O_TRUNC), 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        var argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) }
        argv.append(nil)
        defer { for p in argv { free(p) } }
        var child: pid_t = 0
        let result = posix_spawn(&child, arguments[0], &actions, nil, argv, environ)
        guard result == 0 else { throw HarnessError.system("cannot start \(arguments[0])", errno: result) }
        pid = child
    }

    var stats: ProcessStats { ProcessStats(pid: pid) }

    /// Whether it is still running (reaps it if not).
    var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid {
            exitStatus = status
            return false
        }
        return true
    }

    /// Sends `signal` and waits for the exit; returns the wait status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM) -> Int32 {
        if let exitStatus { return exitStatus }
        kill(pid, signal)
        return wait()
    }

    @discardableResult
    func wait() -> Int32 {
        if let exitStatus { return exitStatus }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        exitStatus = status
        return status
    }

    /// The tail of its log, for error messages.
    func logTail(lines: Int = 20) -> String {
        let text = ProcessStats.read(logPath) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines).joined(separator: "\n")
    }

    /// Runs a program to completion and returns its exit status.
    static func run(_ arguments: [String], logPath: String, stdoutPath: String? = nil) throws -> Int32 {
        let child = try ChildProcess(arguments, logPath: logPath, stdoutPath: stdoutPath)
        let status = child.wait()
        return status
    }
}
