import ScrollDesktop
import ScrollModel
import ScrollSession

extension DaemonCore {
    /// A desktop's settings, read at start or after a change (docs/design.md §23): merged with
    /// the other desktops' and, when that changes what applies, put in force as a command, so
    /// the recording has it and a replay applies it at the same instant.
    package func desktopSettingsChanged(_ settings: DesktopSettings) {
        eventLoop.assertInEventLoop()
        desktops.removeAll { $0.desktop == settings.desktop }
        desktops.append(settings)
        let merged = DesktopMerge.input(desktops, current: currentDesktops)
        guard merged != session.configuration.desktop ?? DesktopInput() else { return }
        do {
            _ = try execute(.desktop(merged, at: eventLoop.timestamp))
            logger.info("following \(settings.desktop.sourceName): \(Self.describe(merged))")
        } catch {
            logger.error("the desktop's settings were not applied: \(error.message)")
        }
        finish()
    }

    /// One line for the log: what the desktops say.
    static func describe(_ input: DesktopInput) -> String {
        var parts: [String] = input.rules.map { rule in
            let devices: String
            switch rule.devices {
            case .touchpads: devices = "touchpads"
            case .mice: devices = "mice"
            case .named(let name): devices = "\"\(name)\""
            }
            var keys: [String] = []
            if let natural = rule.naturalScrolling { keys.append("natural scrolling \(natural ? "on" : "off")") }
            if let factor = rule.scrollFactor { keys.append("scroll factor \(factor)") }
            return "\(devices): \(keys.joined(separator: ", ")) (\(rule.source))"
        }
        if let motion = input.reducedMotion { parts.append("reduced motion \(motion.value ? "on" : "off") (\(motion.source))") }
        return parts.isEmpty ? "nothing set" : parts.joined(separator: "; ")
    }
}
