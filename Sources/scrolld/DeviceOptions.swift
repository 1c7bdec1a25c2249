import ArgumentParser
import Glibc
import ScrollConfig
import ScrollDaemon
import ScrollInput

/// Which devices `devices` and `record` open, and the configuration whose [input] settings
/// apply to them.
struct DeviceOptions: ParsableArguments {
    @Option(parsing: .unconditional, help: ArgumentHelp("The configuration file whose [input] settings apply (default: the XDG search path).", valueName: "FILE"))
    var config: String?

    @Option(parsing: .unconditional, help: ArgumentHelp("The udev seat (default: $XDG_SEAT, else seat0).", valueName: "SEAT"))
    var seat: String?

    @Option(name: .customLong("device"), parsing: .unconditionalSingleValue, help: ArgumentHelp("Use these device nodes instead of the seat (repeatable).", valueName: "PATH"))
    var devices: [String] = []

    /// The backend for these options, once every `--device` is a device node: one that is not
    /// ends the command with status 66 and the system's reason, as `run` does, before libinput
    /// would blame the node's type or permissions for a path that does not exist.
    func backend(environment: [String: String]) throws -> LibinputContext.Backend {
        for path in devices {
            guard let reason = Self.unusable(path) else { continue }
            standardError("scrolld: cannot use --device \(path): \(reason)")
            throw ExitCode(66)  // EX_NOINPUT
        }
        return LibinputContext.Backend.resolve(devices: devices, seat: seat, environment: environment)
    }

    /// Why `path` is no device node to read (it does not exist, or is a file of another
    /// kind); nil when it is one.
    static func unusable(_ path: String) -> String? {
        var status = stat()
        if stat(path, &status) != 0 { return String(cString: strerror(errno)) }
        if status.st_mode & S_IFMT != S_IFCHR { return "not a device node (input devices are /dev/input/event*)" }
        return nil
    }

    func configuration(environment: [String: String]) throws -> Configuration {
        try ConfigurationFileSource.loadForDevices(config: config, environment: environment)
    }
}
