import ArgumentParser
import ScrollModel
import ScrollProtocol

struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "List the input devices the daemon reads.")

    @Flag(help: "Print the daemon's reply line instead of a table.")
    var json = false

    @OptionGroup var connection: ConnectionOptions

    func run() throws {
        try connection.request(.devices) { message, _ throws(ClientFailure) in
            guard case .devices(_, let devices, let input, let focus, let reducedMotion) = message.reply else { throw .unexpected(message, for: .devices) }
            if json {
                Output.write(message.line + [UInt8(ascii: "\n")])
            } else {
                Output.write(Self.table(devices) + Self.motionLine(reducedMotion) + (input.map(Self.inputLine) ?? "") + (focus.map(Self.focusLine) ?? ""))
            }
        }
    }

    /// The line under the table that says whether motion is reduced, and what decided it
    /// (docs/design.md §23: `default` when nothing did); nothing from a daemon that does not say.
    static func motionLine(_ reducedMotion: DesktopInput.Sourced<Bool>?) -> String {
        guard let reducedMotion else { return "" }
        return "Reduced motion: \(reducedMotion.value ? "on" : "off") (\(reducedMotion.source))\n"
    }

    /// The line under the table that says whether the daemon reads its devices
    /// (docs/design.md §15).
    static func inputLine(_ input: InputState) -> String {
        switch input.reason {
        case nil: "Input: active\n"
        case .sessionInactive?: "Input: paused (session_inactive: this user's session is not the active one of the seat; devices are closed)\n"
        case .sleep?: "Input: paused (sleep: the system is suspending or asleep; devices are closed)\n"
        }
    }

    /// The line that names the container holding the focus (docs/design.md §14), when the
    /// daemon says: input routed by focus goes there before the pointer's container.
    static func focusLine(_ focus: String?) -> String {
        focus.map { "Focus: \(Output.shown($0))\n" } ?? "Focus: none\n"
    }

    /// `on (desktop:kde)`: a setting and where it came from (docs/design.md §23); `-` if unsaid.
    static func sourced<Value>(_ value: DesktopInput.Sourced<Value>?, _ text: (Value) -> String) -> String {
        value.map { "\(text($0.value)) (\($0.source))" } ?? "-"
    }

    static func table(_ devices: [DeviceInfo]) -> String {
        guard !devices.isEmpty else { return "No input devices.\n" }
        let desktop = devices.contains { $0.naturalScrolling != nil || $0.speed != nil }
        // The desktop's columns before RULES, the last, whose width varies most.
        var rows = [["ID", "NAME", "CAPS", "PATH", "CONTAINERS"] + (desktop ? ["NATURAL", "SPEED"] : []) + ["RULES"]]
        for device in devices {
            let caps = DeviceCapabilities.names.filter { device.capabilities.contains($0.0) }.map(\.1)
            var row: [String] = [
                // The name is the device maker's: a newline or an escape sequence in it must not
                // reach the terminal, so it is listed as `scrolld devices` lists it.
                String(device.id), Output.shown(device.name), caps.isEmpty ? "-" : caps.joined(separator: ","),
                device.path ?? "-", device.containers.map { $0.isEmpty ? "-" : $0.map(Output.shown).joined(separator: ",") } ?? "all",
            ]
            if desktop { row += [Self.sourced(device.naturalScrolling) { $0 ? "on" : "off" }, Self.sourced(device.speed) { "\($0)" }] }
            rows.append(row + [device.rules.map { $0.isEmpty ? "-" : $0.map(Output.shown).joined(separator: ",") } ?? "-"])
        }
        var widths = Array(repeating: 0, count: rows[0].count)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        var text = ""
        for row in rows {
            var line = ""
            for (i, cell) in row.enumerated() {
                line += i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count + 2)
            }
            text += line + "\n"
        }
        return text
    }
}
