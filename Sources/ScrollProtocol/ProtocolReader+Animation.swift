import ScrollModel

extension ProtocolReader {
    static let animationExpected = #""none", "smooth", "snappy", "bouncy" or {"spring":{"duration":…,"bounce":…}}"#

    /// `"none"`, a preset name, or `{"spring":{"duration":T,"bounce":b}}` (SwiftUI's defaults,
    /// 0.5 and 0, for absent ones), or `{"spring":{"stiffness":k,"damping":c}}`, each within
    /// the ranges of `Limits` so that every spring settles.
    mutating func animation(at range: Range<Int>) throws(ProtocolError) -> ScrollAnimation {
        let key = "animation"
        switch kind(at: range) {
        case .string?:
            switch try readString() {
            case "none": return .none
            case "smooth": return .smooth
            case "snappy": return .snappy
            case "bouncy": return .bouncy
            default: throw invalid(key, at: range, expected: Self.animationExpected)
            }
        case .object?:
            let fields = try object(AnimationKey.self, at: range, key: key)
            if let unknown = fields.firstUnknown {
                throw .unknownKey("animation." + name(of: unknown.key), accepted: "spring")
            }
            guard let spring = present(fields[.spring]) else {
                throw invalid(key, at: range, expected: Self.animationExpected)
            }
            return .spring(try self.spring(at: spring))
        default:
            throw invalid(key, at: range, expected: Self.animationExpected)
        }
    }

    private mutating func spring(at range: Range<Int>) throws(ProtocolError) -> Spring {
        let key = "animation.spring"
        let fields = try object(SpringKey.self, at: range, key: key, expected: #"an object like {"duration":0.5,"bounce":0}"#)
        if let unknown = fields.firstUnknown {
            throw .unknownKey("\(key).\(name(of: unknown.key))", accepted: "duration, bounce, stiffness, damping")
        }
        let duration = present(fields[.duration]), bounce = present(fields[.bounce])
        let stiffness = present(fields[.stiffness]), damping = present(fields[.damping])
        guard stiffness == nil && damping == nil else {
            guard duration == nil && bounce == nil else {
                throw invalid(key, at: range, expected: "either duration and bounce or stiffness and damping")
            }
            guard let stiffness else { throw .missing("\(key).stiffness") }
            guard let damping else { throw .missing("\(key).damping") }
            let k = try number(at: stiffness, key: "\(key).stiffness", in: Limits.springStiffness)
            let ratio = Limits.springDampingRatio
            let dampingExpected = "a number between \(Limits.format(ratio.lowerBound))·2√stiffness and \(Limits.format(ratio.upperBound))·2√stiffness (a damping ratio the spring settles with)"
            let c = try number(at: damping, key: "\(key).damping", in: 0...Limits.magnitude, expected: dampingExpected)
            guard ratio.contains(c / (2 * k.squareRoot())) else { throw invalid("\(key).damping", at: damping, expected: dampingExpected) }
            return Spring(stiffness: k, damping: c)
        }
        var t = 0.5
        if let duration {
            t = try number(at: duration, key: "\(key).duration", in: Limits.springDuration)
        }
        var b = 0.0
        if let bounce {
            b = try number(at: bounce, key: "\(key).bounce", in: Limits.springBounce)
        }
        return Spring(duration: t, bounce: b)
    }
}
