import ScrollModel
import ScrollProtocol

/// The desktop's settings as a recording carries them (docs/event-log.md): in a `desktop` line
/// and in a reload line's `desktop`.
///
/// `{"rules":[{"devices":"touchpads"|"mice"|{"name":N},"natural_scrolling":B?,
/// "scroll_factor":F?,"source":S}],"reduced_motion":{"value":B,"source":S}?}`
extension DesktopInput {
    /// The JSON object a recording carries.
    public var recorded: ProtocolValue {
        var members: [(String, ProtocolValue)] = [("rules", .array(rules.map(\.recorded)))]
        if let reducedMotion {
            members.append(("reduced_motion", .object([("value", .bool(reducedMotion.value)), ("source", .string(reducedMotion.source))])))
        }
        return .object(members)
    }

    /// Settings read back from a recording, checked as the watchers check them: a bad one is
    /// refused with what is wrong.
    public init(recorded value: ProtocolValue) throws(ProtocolError) {
        guard case .object = value, case .array(let items)? = value[member: "rules"] else {
            throw ProtocolError(.invalidValue, "recorded desktop settings need a \"rules\" array")
        }
        guard items.count <= Limits.desktopRules else {
            throw ProtocolError(.tooLarge, "recorded desktop settings have \(items.count) rules (at most \(Limits.desktopRules))")
        }
        var rules: [Rule] = []
        for item in items { rules.append(try Rule(recorded: item)) }
        var reducedMotion: Sourced<Bool>?
        if let motion = value[member: "reduced_motion"], motion != .null {
            guard case .bool(let on)? = motion[member: "value"], case .string(let source)? = motion[member: "source"] else {
                throw ProtocolError(.invalidValue, "recorded desktop \"reduced_motion\" needs a boolean \"value\" and a \"source\"")
            }
            reducedMotion = Sourced(on, source: source)
        }
        self.init(rules: rules, reducedMotion: reducedMotion)
    }
}

extension DesktopInput.Rule {
    var recorded: ProtocolValue {
        let devices: ProtocolValue
        switch self.devices {
        case .touchpads: devices = .string("touchpads")
        case .mice: devices = .string("mice")
        case .named(let name): devices = .object([("name", .string(name))])
        }
        var members: [(String, ProtocolValue)] = [("devices", devices)]
        if let naturalScrolling { members.append(("natural_scrolling", .bool(naturalScrolling))) }
        if let scrollFactor { members.append(("scroll_factor", .double(scrollFactor))) }
        members.append(("source", .string(source)))
        return .object(members)
    }

    init(recorded value: ProtocolValue) throws(ProtocolError) {
        let devices: DesktopInput.Devices
        switch value[member: "devices"] {
        case .string("touchpads")?: devices = .touchpads
        case .string("mice")?: devices = .mice
        case .object?:
            guard case .string(let name)? = value[member: "devices"]?[member: "name"] else {
                throw ProtocolError(.invalidValue, "a recorded desktop rule's \"devices\" object needs a \"name\"")
            }
            devices = .named(name)
        default:
            throw ProtocolError(.invalidValue, "a recorded desktop rule's \"devices\" must be \"touchpads\", \"mice\" or {\"name\":…}")
        }
        guard case .string(let source)? = value[member: "source"] else {
            throw ProtocolError(.invalidValue, "a recorded desktop rule needs its \"source\"")
        }
        self.init(devices: devices, source: source)
        switch value[member: "natural_scrolling"] {
        case nil: break
        case .bool(let on)?: naturalScrolling = on
        default: throw ProtocolError(.invalidValue, "a recorded desktop rule's \"natural_scrolling\" must be true or false")
        }
        switch value[member: "scroll_factor"] {
        case nil: break
        case .double(let factor)? where Limits.desktopScrollFactor.contains(factor): scrollFactor = factor
        case .integer(let factor)? where Limits.desktopScrollFactor.contains(Double(factor)): scrollFactor = Double(factor)
        default:
            throw ProtocolError(.invalidValue, "a recorded desktop rule's \"scroll_factor\" must be a number in \(Limits.desktopScrollFactor)")
        }
    }
}
