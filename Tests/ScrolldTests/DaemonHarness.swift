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
        launcher: [String] = [], user: UInt32? = nil, capabilities: [String] = []
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
        FileManager.default.createFile(atPath: stderrURL.path, contents: nil)
        var args = ["run", "--socket", socketPath]
        if !searchPath { args += ["--config", configPath] }
        if let replay { args += ["--replay", replay] }
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
        try waitForSocket()
        if let notify { try waitForReady(notify) }
    }

    private func waitForReady(_ notify: NotifySocket, timeout: Double = 20) throws {
        defer { notify.close() }
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            if notify.receive(until: "READY=1", timeout: 0.2).contains(where: { $0.contains("READY=1") }) { return }
            if !process.isRunning { throw HarnessError("scrolld exited before READY=1: \(stderr)") }
        }
        throw HarnessError("scrolld did not send READY=1 within \(timeout) s: \(stderr)")
    }

    func waitForSocket(timeout: Double = 20) throws {
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

    /// Stops the daemon (SIGTERM) and returns its exit status.
    @discardableResult
    func stop(timeout: Double = 10) -> Int32 {
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

/// A blocking Unix-socket client that reads JSON lines with a timeout.
final class LineClient {
    /// -1 once closed: closing a number twice could close a descriptor that another test (or
    /// libudev, in this same process) has since been given.
    private(set) var fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        // Close-on-exec: tests run in parallel, and a process another test spawns must not
        // inherit this connection (the daemon would see it open after this test closed it).
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let code = errno
            close()
            throw HarnessError("connect \(path): \(String(cString: strerror(code)))")
        }
    }

    func close() {
        if fd >= 0 { Glibc.close(fd) }
        fd = -1
    }

    deinit { close() }

    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            offset += n
        }
    }

    func send(_ object: [String: Any]) {
        send(String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self))
    }

    /// The next line, or nil at EOF or after `timeout` seconds without one.
    func readLine(timeout: Double = 5) -> String? {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { return nil }
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return nil }
            buffer += chunk[..<n]
        }
    }

    func readJSON(timeout: Double = 5) -> [String: Any]? {
        guard let line = readLine(timeout: timeout) else { return nil }
        return (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
    }

    /// Reads lines until one of `type` arrives (skipping broadcasts in between).
    func read(type: String, timeout: Double = 5) -> [String: Any]? {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let object = readJSON(timeout: deadline.timeIntervalSinceNow) else { return nil }
            if object["type"] as? String == type { return object }
        }
        return nil
    }

    /// Sends a request and returns the reply carrying its id.
    func request(_ object: [String: Any], id: Int, timeout: Double = 5) -> [String: Any]? {
        var object = object
        object["id"] = id
        send(object)
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            guard let reply = readJSON(timeout: deadline.timeIntervalSinceNow) else { return nil }
            if (reply["id"] as? NSNumber)?.intValue == id { return reply }
        }
        return nil
    }

    /// Whether the server has closed the connection (EOF within `timeout`).
    func isClosed(timeout: Double = 5) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while deadline.timeIntervalSinceNow > 0 {
            var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&pfd, 1, 50) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65536)
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { return true }
        }
        return false
    }
}
