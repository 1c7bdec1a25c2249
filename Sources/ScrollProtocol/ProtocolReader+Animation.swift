import ScrollModel

extension ProtocolReader {
    static let animationExpected = #""none", "smooth", "snappy", "bouncy" or {"spring":{"duration":…,"bounce":…}}"#

    /// `"none"`, a preset name, or `{"spring":{"duration":T,"bounce":b}}` with T > 0 and
    /// -1 < b < 1 (SwiftUI's defaults, 0.5 and 0, for absent ones), or
    /// `{"spring":{"stiffness":k,"damping":c}}` with k, c > 0.
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
            let positive = "a finite number greater than 0"
            let k = try number(at: stiffness, key: "\(key).stiffness", expected: positive)
            guard k > 0 else { throw invalid("\(key).stiffness", at: stiffness, expected: positive) }
            let c = try number(at: damping, key: "\(key).damping", expected: positive)
            guard c > 0 else { throw invalid("\(key).damping", at: damping, expected: positive) }
            return Spring(stiffness: k, damping: c)
        }
        var t = 0.5
        if let duration {
            let expected = "a finite number greater than 0"
            t = try number(at: duration, key: "\(key).duration", expected: expected)
            // Below ~1e-154 s the stiffness (2π/T)² overflows: no motion can use that spring.
            guard t > 0, (2 * Double.pi / t * (2 * Double.pi / t)).isFinite else {
                throw invalid("\(key).duration", at: duration, expected: expected)
            }
        }
        var b = 0.0
        if let bounce {
            let expected = "a number greater than -1 and less than 1"
            b = try number(at: bounce, key: "\(key).bounce", expected: expected)
            guard b > -1, b < 1 else { throw invalid("\(key).bounce", at: bounce, expected: expected) }
        }
        return Spring(duration: t, bounce: b)
    }
}
