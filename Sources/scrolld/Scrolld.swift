import ArgumentParser

@main
struct Scrolld: ParsableCommand {
    static let version = "0.1.0"

    static let configuration = CommandConfiguration(
        commandName: "scrolld",
        abstract: "Scroll input daemon: real wheels, touchpads and trackpoints drive virtual scroll containers.",
        version: version,
        subcommands: [Run.self, Replay.self, Record.self, ImportDebugEvents.self, Devices.self, CheckConfig.self]
    )
}
