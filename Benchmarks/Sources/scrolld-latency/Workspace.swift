import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The run's scratch folder (sockets, logs, the config) and the binaries it uses.
struct Workspace {
    let directory: String
    let scrolld: String
    let generator: String
    /// `--realtime-priority N`: the daemon's `daemon.realtime_priority` (unset: its default).
    let daemonArguments: [String]

    init(options: Options) throws {
        scrolld = try options.string("scrolld")
        daemonArguments = try options.string("realtime-priority", default: "").isEmpty
            ? [] : ["--set", "daemon.realtime_priority=\(try options.int("realtime-priority", default: 0))"]
        generator = try options.string("generator", default: "Benchmarks/generate-log.py")
        guard access(scrolld, X_OK) == 0 else { throw HarnessError("no scrolld executable at \(scrolld) (build it: swift build -c release)") }
        let base = try options.string("work", default: ProcessInfo.processInfo.environment["TMPDIR"] ?? "/tmp")
        var template = Array("\(base)/scrolld-latency.XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw HarnessError.system("mkdtemp in \(base)") }
        directory = String(cString: made)
        let configuration = try String(contentsOfFile: Self.configurationPath, encoding: .utf8)
        try configuration.write(toFile: configPath, atomically: true, encoding: .utf8)
    }

    var configPath: String { directory + "/scrolld.toml" }
    func path(_ name: String) -> String { directory + "/" + name }

    /// Benchmarks/list.toml: a list with a collapsing header, as a client UI would configure
    /// it (shared with scripts/fanout-callgrind.sh). Found from this executable
    /// (Benchmarks/.build/release/scrolld-latency), which is where it is in the guest too.
    static var configurationPath: String {
        // /proc/self/exe is resolved: …/Benchmarks/.build/x86_64-unknown-linux-gnu/release/….
        let parts = executable.split(separator: "/", omittingEmptySubsequences: false)
        let package = parts.lastIndex(of: ".build").map { parts[..<$0] } ?? parts.dropLast()
        return package.joined(separator: "/") + "/list.toml"
    }

    /// This executable, for the floor server.
    static var executable: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return n > 0 ? String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : CommandLine.arguments[0]
    }

    /// Starts `scrolld run` on a socket in this folder and waits until it accepts clients.
    func startDaemon(socket: String, extra: [String], name: String) throws -> ChildProcess {
        let daemon = try ChildProcess([scrolld, "run", "--config", configPath, "--socket", socket] + daemonArguments + extra, logPath: path("\(name).log"))
        try UnixSocket.waitUntilConnectable(socket, timeout: 60) { daemon.isRunning }
        return daemon
    }

    /// Stops a daemon with SIGTERM and insists on a clean exit.
    static func stop(_ daemon: ChildProcess) throws {
        let status = daemon.stop()
        guard status == 0 else { throw HarnessError("scrolld run exited with wait status \(status) on SIGTERM:\n\(daemon.logTail())") }
    }
}
