import ArgumentParser
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

/// A number as the user wrote it: an integer stays an integer (the daemon checks
/// configuration values as TOML would, where a row count must be one).
func protocolNumber<S: StringProtocol>(_ text: S) -> ProtocolValue? {
    if let int = Int(text) { return .integer(int) }
    if let double = Double(text), double.isFinite { return .double(double) }
    return nil
}

/// `WxH`, as `{"width":W,"height":H}`.
struct SizeArgument: ExpressibleByArgument {
    var value: ProtocolValue

    init?(argument: String) {
        let parts = argument.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = protocolNumber(parts[0]), let height = protocolNumber(parts[1]) else { return nil }
        value = .object([("width", width), ("height", height)])
    }
}

/// `TOP,LEADING,BOTTOM,TRAILING`, as `{"top":…,"leading":…,"bottom":…,"trailing":…}`.
struct InsetsArgument: ExpressibleByArgument {
    var value: ProtocolValue

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { protocolNumber($0) }
        guard parts.count == 4, numbers.count == 4 else { return nil }
        value = .object(zip(["top", "leading", "bottom", "trailing"], numbers).map { ($0, $1) })
    }
}

/// `MIN:MAX`: a collapsing header's heights.
struct HeaderArgument: ExpressibleByArgument {
    var value: ProtocolValue

    init?(argument: String) {
        let parts = argument.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2, let min = protocolNumber(parts[0]), let max = protocolNumber(parts[1]) else { return nil }
        value = .object([("min_height", min), ("max_height", max)])
    }
}

/// `COUNTxHEIGHT`: rows of one height.
struct RowsArgument: ExpressibleByArgument {
    var value: ProtocolValue

    init?(argument: String) {
        let parts = argument.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let count = Int(parts[0]), let height = protocolNumber(parts[1]) else { return nil }
        value = .object([("count", .integer(count)), ("height", height)])
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
