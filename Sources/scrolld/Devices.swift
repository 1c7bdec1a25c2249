import ScrollDaemon
import ArgumentParser
import FoundationEssentials
import ScrollConfig
import ScrollInput

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "devices",
        abstract: "List the input devices scrolld would use, and why others are skipped."
    )

    @OptionGroup var devices: DeviceOptions

    func run() throws {
        let environment = ProcessInfo.processInfo.environment
        let backend = try devices.backend(environment: environment)
        let loaded = try devices.configuration(environment: environment)
        let input = loaded.input
        let context: LibinputContext
        do {
            context = try LibinputContext(backend, ignoring: loaded.daemon.ignore, touchscreens: input.touchscreens, settings: { input.libinputSettings(forDevice: $0) })
        } catch {
            standardError("scrolld: \(error)")
            throw ExitCode(1)
        }
        while context.nextEvent() != nil {}
        var output = OutputStream.standardOutput
        let used = context.devices.values.sorted { $0.id < $1.id }
        output.line(used.isEmpty ? "No usable scroll devices." : "Used:")
        for device in used {
            let caps = DeviceCapabilitiesText.names(device.capabilities)
            let rules = input.ruleNames(forDevice: device.name)
            // docs/design.md §25: a touchscreen says so.
            let kind = device.capabilities.contains(.touch) ? " (touchscreen)" : ""
            // The name is the device maker's: shown escaped when it holds a control character.
            output.line("  \(device.path)\t\(DeviceNameText.shown(device.name))\(kind)\t[\(caps)]\trules: \(rules.isEmpty ? "none" : rules.joined(separator: ", "))")
        }
        let skipped = context.refusals.sorted { $0.key < $1.key }
        if !skipped.isEmpty {
            output.line("Skipped:")
            for (path, reason) in skipped { output.line("  \(path)\t\(reason)") }
        }
        output.flush()
        if let problem = context.permissionProblem {
            standardError("scrolld: \(problem)")
        }
    }
}

import ScrollModel

enum DeviceCapabilitiesText {
    static func names(_ caps: DeviceCapabilities) -> String {
        DeviceCapabilities.names.filter { caps.contains($0.0) }.map(\.1).joined(separator: ", ")
    }
}
