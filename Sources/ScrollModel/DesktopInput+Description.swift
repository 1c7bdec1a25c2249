
extension DesktopInput: CustomStringConvertible {
    /// One line for the log: what the desktops say, rule by rule, with where each came from.
    public var description: String {
        var parts: [String] = rules.map { rule in
            var keys: [String] = []
            if let natural = rule.naturalScrolling { keys.append("natural scrolling \(natural ? "on" : "off")") }
            if let factor = rule.scrollFactor { keys.append("scroll factor \(factor)") }
            return "\(rule.devices): \(keys.joined(separator: ", ")) (\(rule.source))"
        }
        if let motion = reducedMotion { parts.append("reduced motion \(motion.value ? "on" : "off") (\(motion.source))") }
        return parts.isEmpty ? "nothing set" : parts.joined(separator: "; ")
    }
}

extension DesktopInput.Devices: CustomStringConvertible {
    /// `touchpads`, `mice`, or the device's name in quotes.
    public var description: String {
        switch self {
        case .touchpads: "touchpads"
        case .mice: "mice"
        case .named(let name): "\"\(name)\""
        }
    }
}
