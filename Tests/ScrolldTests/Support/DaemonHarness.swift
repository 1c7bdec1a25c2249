import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real `scrolld run` process on a private socket and config, for integration tests.
final class DaemonProcess {
    let process = Process()
    let directory: URL
    let socketPath: String
    let configPath: String
    let stderrURL: URL

    /// `softFileLimit`: started with this soft RLIMIT_NOFILE (through `sh -c 'ulimit -S -n'`,
    /// which then execs scrolld under the same pid). `socketIn`: the socket goes into this
    /// subdirectory (made by the daemon). `searchPath`: no `--config`; the config is
    /// `$XDG_CONFIG_HOME/scrolld/scrolld.toml`, found by the search path. `launcher`: a command
    /// that execs the rest of its arguments under the same pid (`chrt -f 30`, `prlimit …`).
    /// `user`: run as this uid and gid (through setpriv, root only), owning the directory,
    /// keeping the `capabilities` named (setpriv's names: `sys_nice`) as ambient ones.
    init(
        config: String = "", arguments: [String] = [], replay: String? = nil, environment extra: [String: String] = [:],
        softFileLimit: Int? = nil, socketIn subdirectory: String? = nil, searchPath: Bool = false,
        launcher: [String] = [], user: UInt32? = nil, capabilities: [String] = [], realTime: Bool = false
    ) throws {
        // A short path: Unix socket paths are limited to 107 bytes.
        directory = URL(fileURLWithPath: "/tmp/sd-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        socketPath = directory.appendingPathComponent(subdirectory.map { $0 + "/s.sock" } ?? "s.sock").path
        if searchPath {
            let folder = directory.appendingPathComponent("scrolld")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            configPath = folder.appendingPathComponent("scrolld.toml").path
        } else {
            configPath = directory.appendingPathComponent("scrolld.toml").path
        }
        try config.write(toFile: configPath, atomically: true, encoding: .utf8)
        stderrURL = directory.appendingPathComponent("stderr.log")
        try Data().write(to: stderrURL)
        var args = ["run", "--socket", socketPath]
        if !searchPath { args += ["--config", configPath] }
        if let replay { args += ["--replay", replay] }
        // Real time only where a test is about it (`realTime`, or a config that sets
        // realtime_priority): as root every test daemon would otherwise run SCHED_RR beside
        // dozens of others and the builds of a busy machine, and what a behaviour test sees
        // would depend on the kernel's real-time throttling and RLIMIT_RTTIME rather than on
        // the daemon (docs/decisions.md, "Tests and real time").
        if !realTime, !config.contains("realtime_priority") { args += ["--set", "daemon.realtime_priority=0"] }
        var command = [Scrolld.binary.path] + args + arguments
        if let softFileLimit {
            command = ["/bin/sh", "-c", "ulimit -S -n \(softFileLimit) && exec \"$0\" \"$@\""] + command
        }
        if let user {
            for path in [directory.path, configPath, stderrURL.path] { chown(path, user, user) }
            let keep = capabilities.map { "+" + $0 }.joined(separator: ",")
            command = ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"]
                + (capabilities.isEmpty ? [] : ["--inh-caps=\(keep)", "--ambient-caps=\(keep)"]) + command
        }
        command = launcher + command
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = directory.path
        // The daemon follows the desktop it runs in (docs/design.md §23): under test it sees
        // none of the machine's (a developer's GNOME, sway or portal), only what a test gives it.
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=" + directory.appendingPathComponent("no-session-bus").path
        environment["SWAYSOCK"] = nil
        environment["XDG_CURRENT_DESKTOP"] = nil
        // The daemon says READY=1 once it is whole (socket, watchers, input source): tests
        // start from there, not from the first moment the socket accepts, so what they measure
        // as a baseline (its descriptors, say) is all there. A test may bring its own socket.
        let notify = extra["NOTIFY_SOCKET"] == nil ? try NotifySocket() : nil
        environment["NOTIFY_SOCKET"] = notify?.path
        if let user, let notify { chown(notify.path, user, user) }
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        process.standardError = try FileHandle(forWritingTo: stderrURL)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        // READY=1 comes once the socket listens; without it, a trial connection says so. Only
        // one of the two: a trial connection is a client (`--replay-start first-client`).
        if let notify { try waitForReady(notify) } else { try waitForSocket() }
    }

    /// The deadlines here (and in LineClient, waitUntil, ...) only catch a hang: a daemon on a
    /// loaded machine may take seconds to start, and a test must not fail for that.
    private func waitForReady(_ notify: NotifySocket, timeout: Double = 60) throws {
        defer { notify.close() }
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            if notify.receive(until: "READY=1", timeout: 0.2).contains(where: { $0.contains("READY=1") }) { return }
            if !process.isRunning { throw HarnessError("scrolld exited before READY=1: \(stderr)") }
        }
        throw HarnessError("scrolld did not send READY=1 within \(timeout) s: \(stderr)")
    }

    func waitForSocket(timeout: Double = 60) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            if let client = try? LineClient(path: socketPath) { client.close(); return }
            if !process.isRunning { throw HarnessError("scrolld exited early: \(stderr)") }
            usleep(20_000)
        }
        throw HarnessError("scrolld did not listen within \(timeout) s: \(stderr)")
    }

    var stderr: String { (try? String(contentsOf: stderrURL, encoding: .utf8)) ?? "" }

    var pid: Int32 { process.processIdentifier }

    /// What /proc says about the daemon.
    var probe: ProcessProbe { ProcessProbe(pid: pid) }

    /// Waits until the daemon's log contains `text`.
    func waitForLog(_ text: String, timeout: Double = 30) -> Bool {
        waitUntil(timeout: timeout) { self.stderr.contains(text) }
    }

    func signal(_ signal: Int32) { kill(process.processIdentifier, signal) }

    /// Stops the daemon (SIGTERM) and returns its exit status; SIGKILL (status 9) if it is
    /// still running after `timeout` seconds.
    @discardableResult
    func stop(timeout: Double = 30) -> Int32 {
        if process.isRunning { signal(SIGTERM) }
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { usleep(10_000) }
        if process.isRunning { signal(SIGKILL); process.waitUntilExit() }
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() }
        try? FileManager.default.removeItem(at: directory)
    }
}

struct HarnessError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
