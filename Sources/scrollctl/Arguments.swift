import ArgumentParser
import ScrollCommandLine
import ScrollModel
import ScrollProtocol

/// `none`, `smooth`, `snappy`, `bouncy` or `spring:DURATION[,BOUNCE]`.
struct AnimationArgument {
    var animation: ScrollAnimation

    static let valueName = "none|smooth|snappy|bouncy|spring:DURATION,BOUNCE"

    /// The animation `argument` names; a mistake is named with the range it missed.
    static func parse(_ argument: String) throws(ValidationError) -> AnimationArgument {
        switch argument {
        case "none": return AnimationArgument(animation: .none)
        case "smooth": return AnimationArgument(animation: .smooth)
        case "snappy": return AnimationArgument(animation: .snappy)
        case "bouncy": return AnimationArgument(animation: .bouncy)
        default:
            guard argument.hasPrefix("spring:") else {
                throw ValidationError("expected none, smooth, snappy, bouncy or spring:DURATION[,BOUNCE]")
            }
            let parts = argument.dropFirst("spring:".count).split(separator: ",", omittingEmptySubsequences: false)
            let durations = Limits.springDuration, bounces = Limits.springBounce
            guard parts.count == 1 || parts.count == 2, let duration = Double(parts[0]), durations.contains(duration) else {
                throw ValidationError("a spring's duration is seconds from \(Limits.format(durations.lowerBound)) to \(Limits.format(durations.upperBound))")
            }
            var bounce = 0.0
            if parts.count == 2 {
                guard let value = Double(parts[1]), bounces.contains(value) else {
                    throw ValidationError("a spring's bounce is from \(Limits.format(bounces.lowerBound)) to \(Limits.format(bounces.upperBound))")
                }
                bounce = value
            }
            return AnimationArgument(animation: .spring(Spring(duration: duration, bounce: bounce)))
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
