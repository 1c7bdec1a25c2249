extension DesktopInput {
    /// One line for the daemon's log: what the desktops say, rule by rule, with where each
    /// came from. (Not `description`: the log's wording is no API of the model's.)
    package var summary: String {
        var parts: [String] = rules.map { rule in
            var keys: [String] = []
            if let natural = rule.naturalScrolling { keys.append("natural scrolling \(natural ? "on" : "off")") }
            if let factor = rule.scrollFactor { keys.append("scroll factor \(factor)") }
            return "\(rule.devices.summary): \(keys.joined(separator: ", ")) (\(rule.source))"
        }
        if let motion = reducedMotion { parts.append("reduced motion \(motion.value ? "on" : "off") (\(motion.source))") }
        return parts.isEmpty ? "nothing set" : parts.joined(separator: "; ")
    }
}

extension DesktopInput.Devices {
    /// `touchpads`, `mice`, or the device's name in quotes.
    package var summary: String {
        switch self {
        case .touchpads: "touchpads"
        case .mice: "mice"
        case .named(let name): "\"\(name)\""
        }
    }
}
