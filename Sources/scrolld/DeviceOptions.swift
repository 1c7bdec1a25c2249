import ArgumentParser
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

    func backend(environment: [String: String]) -> LibinputContext.Backend {
        LibinputContext.Backend.resolve(devices: devices, seat: seat, environment: environment)
    }

    func configuration(environment: [String: String]) throws -> Configuration {
        try ConfigurationFileSource.loadForDevices(config: config, environment: environment)
    }
}
