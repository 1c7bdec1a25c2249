import ScrollConfig
import ScrollModel

/// What the daemon's log says about the desktop (docs/design.md §23). All of it comes from the
/// desktop's files and messages, which any program of the user's session may write: names and
/// texts are shown as the configuration's are (docs/config.md: TOML's escapes, cut past 100
/// characters), and a long list of rules is counted rather than listed, so that a change is
/// one short line of printable text however the desktop's files were forged.
package enum DesktopLogLine {
    /// How many rules a line lists; the others are counted.
    static let listedRules = 8
    /// Past this a text (a path, a reason, a message from the bus) is quoted cut.
    static let shownBytes = 1000

    /// What the desktops say together, rule by rule, with where each came from.
    static func summary(_ input: DesktopInput) -> String {
        var parts = input.rules.prefix(listedRules).map(rule)
        if input.rules.count > listedRules {
            parts.append("\(input.rules.count - listedRules) more rules (\(input.rules.count) in all)")
        }
        if let motion = input.reducedMotion { parts.append("reduced motion \(motion.value ? "on" : "off") (\(motion.source))") }
        return parts.isEmpty ? "nothing set" : parts.joined(separator: "; ")
    }

    static func rule(_ rule: DesktopInput.Rule) -> String {
        var keys: [String] = []
        if let natural = rule.naturalScrolling { keys.append("natural scrolling \(natural ? "on" : "off")") }
        if let factor = rule.scrollFactor { keys.append("scroll factor \(factor)") }
        let devices: String
        switch rule.devices {
        case .touchpads: devices = "touchpads"
        case .mice: devices = "mice"
        case .named(let name): devices = Configuration.quoted(name)
        }
        return "\(devices): \(keys.joined(separator: ", ")) (\(rule.source))"
    }

    /// A text from the desktop as it is when it is printable and short, else quoted with its
    /// control characters escaped, and cut.
    package static func shown(_ text: String) -> String {
        text.utf8.count > shownBytes ? Configuration.quoted(text) : Configuration.printable(text)
    }
}
