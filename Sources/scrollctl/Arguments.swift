import ArgumentParser
import ScrollCommandLine
import ScrollModel
import ScrollProtocol

/// `none`, `smooth`, `snappy`, `bouncy` or `spring:DURATION[,BOUNCE]`.
struct AnimationArgument: ExpressibleByArgument {
    var animation: ScrollAnimation

    static let valueName = "none|smooth|snappy|bouncy|spring:DURATION,BOUNCE"

    init?(argument: String) {
        switch argument {
        case "none": animation = .none
        case "smooth": animation = .smooth
        case "snappy": animation = .snappy
        case "bouncy": animation = .bouncy
        default:
            guard argument.hasPrefix("spring:") else { return nil }
            let parts = argument.dropFirst("spring:".count).split(separator: ",", omittingEmptySubsequences: false)
            guard parts.count == 1 || parts.count == 2, let duration = Double(parts[0]), duration > 0, duration.isFinite else {
                return nil
            }
            var bounce = 0.0
            if parts.count == 2 {
                guard let value = Double(parts[1]), value > -1, value < 1 else { return nil }
                bounce = value
            }
            animation = .spring(Spring(duration: duration, bounce: bounce))
        }
    }
}

/// `KEY=VALUE` of `[physics]`: VALUE is a boolean, an integer, a number, or else a string (in
/// quotes or not), as `scrolld --set` reads it.
struct PhysicsAssignment: ExpressibleByArgument {
    var key: String
    var value: ProtocolValue

    init?(argument: String) {
        guard let equals = argument.firstIndex(of: "="), equals != argument.startIndex else { return nil }
        key = String(argument[..<equals])
        let text = argument[argument.index(after: equals)...]
        if text == "true" {
            value = .bool(true)
        } else if text == "false" {
            value = .bool(false)
        } else if let number = protocolNumber(text) {
            value = number
        } else if text.count >= 2, text.first == "\"", text.last == "\"" {
            value = .string(String(text.dropFirst().dropLast()))
        } else {
            value = .string(String(text))
        }
    }
}
