import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A real sway (Debian's, installed when missing as the Makefile installs packages), headless:
/// no display, no input devices, its IPC socket in a private runtime directory. sway refuses to
/// run as root, so as root it runs as `nobody` (setpriv).
final class SwayProcess {
    let process = Process()
    let runtime: URL
    private(set) var socketPath = ""

    /// Whether sway is here, installing Debian's package when it is not (as root, or through
    /// sudo without a password); nil when it is, else why not.
    static let unavailable: String? = {
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sway") { return nil }
        let sudo = getuid() == 0 ? [] : ["/usr/bin/sudo", "-n"]
        let command = sudo + ["/usr/bin/env", "DEBIAN_FRONTEND=noninteractive", "apt-get", "install", "-y", "-qq", "--no-install-recommends", "sway"]
        let result = try? Scrolld.runTool(command[0], Array(command.dropFirst()))
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/sway") { return nil }
        return "sway is not installed and `apt-get install sway` failed: \(result?.stderr ?? "could not run apt-get")"
    }()

    init(config: String = "") throws {
        runtime = URL(fileURLWithPath: "/tmp/sd-sway-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let configFile = runtime.appendingPathComponent("config")
        try config.write(to: configFile, atomically: true, encoding: .utf8)
        var command = ["/usr/bin/sway", "-c", configFile.path]
        if getuid() == 0 {
            for path in [runtime.path, configFile.path] { chown(path, 65534, 65534) }
            command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + command
        }
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_RUNTIME_DIR"] = runtime.path
        environment["HOME"] = runtime.path
        environment["WLR_BACKENDS"] = "headless"
        environment["WLR_RENDERER"] = "pixman"
        environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
        environment["SWAYSOCK"] = nil
        environment["WAYLAND_DISPLAY"] = nil
        process.environment = environment
        process.standardOutput = FileHandle.nullDevice
        let log = runtime.appendingPathComponent("sway.log")
        try Data().write(to: log)
        process.standardError = try FileHandle(forWritingTo: log)
        try process.run()
        let found = waitUntil(timeout: 60) {
            let names = (try? FileManager.default.contentsOfDirectory(atPath: runtime.path)) ?? []
            guard let socket = names.first(where: { $0.hasPrefix("sway-ipc.") }) else { return false }
            socketPath = runtime.appendingPathComponent(socket).path
            return (try? swaymsg(["-t", "get_version"]))?.status == 0
        }
        if !found { stop(); throw HarnessError("sway did not open its IPC socket in \(runtime.path)") }
    }

    /// `swaymsg -s SOCKET ARGUMENTS…`.
    func swaymsg(_ arguments: [String]) throws -> Scrolld.Result {
        try Scrolld.runTool("/usr/bin/swaymsg", ["-s", socketPath] + arguments)
    }

    /// `swaymsg exit` (headless sway under a test may not act on SIGTERM), then SIGKILL if it
    /// lingers.
    func stop() {
        guard process.isRunning else { return }
        _ = try? swaymsg(["exit"])
        if !waitUntil(timeout: 10, { !process.isRunning }) { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
