import Foundation

/// A D-Bus session bus of a test's own: Debian's `dbus-daemon --session` (its service files, so
/// dconf-service starts on the first write as in a desktop session), in a fresh directory that
/// also holds the dconf database (`XDG_CONFIG_HOME`) and runtime files (`XDG_RUNTIME_DIR`) of
/// whatever runs on it.
///
/// The daemon runs under a small Python keeper that kills it when the keeper is terminated or
/// its stdin ends. That stdin is a pipe this process holds, so the bus also ends with the test
/// process however it ends. The keeper first clears the signal mask it inherits (the test
/// process' threads block signals, and a spawned process keeps that mask: a dbus-daemon started
/// from here would ignore SIGTERM).
final class PrivateSessionBus: @unchecked Sendable {
    let directory: URL
    let address: String
    /// The environment of a process on this bus (`gsettings`, a portal peer).
    let environment: [String: String]
    private let keeper: Process
    private let lifeline: Pipe

    static let keeperScript = """
        import os, signal, subprocess, sys
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        log = open(sys.argv[1], "w")
        bus = subprocess.Popen(["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1"], stdin=subprocess.DEVNULL, stderr=log)
        try:
            sys.stdin.buffer.read()
        finally:
            bus.kill()
            bus.wait()
        """

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// The Debian packages these tests need (`make test` installs them; the Makefile's
    /// DESKTOP_TEST_APT), and whether each one's file is here.
    static let needs: [(file: String, package: String)] = [
        ("/usr/bin/dbus-daemon", "dbus-daemon"),
        ("/usr/bin/gsettings", "libglib2.0-bin"),
        ("/usr/libexec/dconf-service", "dconf-service"),
        ("/usr/lib/*/gio/modules/libdconfsettings.so", "dconf-gsettings-backend"),
        ("/usr/share/glib-2.0/schemas/org.gnome.desktop.peripherals.gschema.xml", "gsettings-desktop-schemas"),
        ("/usr/lib/python3/dist-packages/dbus/service.py", "python3-dbus"),
        ("/usr/lib/python3/dist-packages/gi/__init__.py", "python3-gi"),
    ]

    /// What is missing, as `apt-get install` would take it; empty when all is here.
    static var missing: [String] {
        needs.filter { !exists($0.file) }.map(\.package)
    }

    /// Whether a file matches `pattern` (a glob: the multiarch folder of a library).
    private static func exists(_ pattern: String) -> Bool {
        var found = glob_t()
        defer { globfree(&found) }
        return glob(pattern, 0, nil, &found) == 0 && found.gl_pathc > 0
    }

    init() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("scrolld-bus-\(UUID().uuidString)")
        let runtime = directory.appendingPathComponent("runtime")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_CONFIG_HOME"] = directory.appendingPathComponent("config").path
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment.removeValue(forKey: "GSETTINGS_BACKEND")
        keeper = Process()
        keeper.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        // The bus' own messages (its activations) go to a log beside it, not into the test's output.
        keeper.arguments = ["-c", Self.keeperScript, directory.appendingPathComponent("dbus-daemon.log").path]
        keeper.environment = environment
        lifeline = Pipe()
        let output = Pipe()
        keeper.standardInput = lifeline
        keeper.standardOutput = output
        try keeper.run()
        // dbus-daemon prints its address once it listens.
        var lines = LineReader(output.fileHandleForReading)
        guard let line = lines.next(), line.hasPrefix("unix:") else {
            throw Unavailable(description: "dbus-daemon printed no address")
        }
        address = line
        environment["DBUS_SESSION_BUS_ADDRESS"] = address
        self.environment = environment
    }

    /// Ends the bus (by SIGTERM to the keeper: the lifeline's end may be held by another test's
    /// process, spawned meanwhile, which inherited it).
    deinit {
        keeper.terminate()
        keeper.waitUntilExit()
        try? lifeline.fileHandleForWriting.close()
        try? FileManager.default.removeItem(at: directory)
    }

    /// Runs a command on this bus to its end; its output, or why it failed. The output goes to a
    /// file (a pipe's end could be inherited by another test's process, and never end).
    @discardableResult
    func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = environment
        let outURL = directory.appendingPathComponent("run-\(UUID().uuidString)")
        try Data().write(to: outURL)
        defer { try? FileManager.default.removeItem(at: outURL) }
        let out = try FileHandle(forWritingTo: outURL)
        process.standardOutput = out
        process.standardError = out
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try out.close()
        process.waitUntilExit()
        let text = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0 else {
            throw Unavailable(description: "\(arguments.joined(separator: " ")) failed (\(process.terminationStatus)): \(text)")
        }
        return text
    }
}

/// Lines from a pipe, read as they come (blocking).
struct LineReader {
    private let handle: FileHandle
    private var buffer = Data()

    init(_ handle: FileHandle) { self.handle = handle }

    mutating func next() -> String? {
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            let more = handle.availableData
            if more.isEmpty { return nil }
            buffer.append(more)
        }
    }
}
