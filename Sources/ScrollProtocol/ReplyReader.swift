import ScrollModel

/// The second pass over a reply: its located keys read as its type needs them.
struct ReplyReader {
    var reader: ProtocolReader
    let fields: ObjectFields<ReplyKey>

    mutating func reply() throws(ProtocolError) -> Reply {
        let type = try string(.type, code: .badRequest)
        let id = fields[.id].map { RequestID(validated: reader.scanner.bytes, range: $0) }
        switch type {
        case "welcome":
            return .welcome(protocol: try reader.int(at: require(.protocol), key: "protocol"),
                            server: try string(.server),
                            containers: try reader.strings(at: require(.containers), key: "containers"))
        case "ok":
            return .ok(id: id)
        case "pong":
            return .pong(id: id)
        case "error":
            return .error(code: try string(.code), message: try string(.message), id: id)
        case "state":
            return .state(try stateLine(id: id))
        case "devices":
            var reducedMotion: DesktopInput.Sourced<Bool>?
            if let range = reader.present(fields[.reducedMotion]) {
                reducedMotion = try reader.sourced(at: range, key: "reducedMotion") { reader, range, key throws(ProtocolError) in try reader.bool(at: range, key: key) }
            }
            return .devices(id: id, devices: try devices(), input: try inputState(), focus: try focus(), reducedMotion: reducedMotion)
        case "reloaded":
            let ok = try reader.bool(at: require(.ok), key: "ok")
            var file: String?
            if let range = reader.present(fields[.file]) { file = try reader.string(at: range, key: "file") }
            return .reloaded(id: id, result: ReloadResult(ok: ok, file: file, message: try string(.message)))
        case "observation":
            return .observation(try observation(id: id))
        case "removed":
            return .removed(container: try string(.container))
        default:
            return .unknown(type: type)
        }
    }

    /// The whole welcome, part two's keys included (absent from a daemon before them).
    mutating func welcome() throws(ProtocolError) -> WelcomeLine {
        var features: [String] = []
        if let range = reader.present(fields[.features]) { features = try reader.strings(at: range, key: "features") }
        var instance: String?
        if let range = reader.present(fields[.instance]) { instance = try reader.string(at: range, key: "instance") }
        return WelcomeLine(
            protocol: try reader.int(at: require(.protocol), key: "protocol"), server: try string(.server),
            containers: try reader.strings(at: require(.containers), key: "containers"), features: features, instance: instance
        )
    }

    private mutating func observation(id: RequestID?) throws(ProtocolError) -> ObservationMessage {
        let old = try reader.value(at: require(.old), key: "old")
        return ObservationMessage(
            id: id,
            container: try string(.container),
            of: try string(.of),
            seq: try reader.int(at: require(.seq), key: "seq"),
            time: Timestamp(try reader.int(at: require(.t), key: "t")),
            old: old == .null ? nil : old,
            new: try reader.value(at: require(.new), key: "new")
        )
    }

    func require(_ key: ReplyKey) throws(ProtocolError) -> Range<Int> {
        guard let range = fields[key] else { throw .missing(key.name) }
        return range
    }

    mutating func string(_ key: ReplyKey, code: ErrorCode = .invalidValue) throws(ProtocolError) -> String {
        try reader.string(at: require(key), key: key.name, code: code)
    }

    private mutating func devices() throws(ProtocolError) -> [DeviceInfo] {
        let range = try require(.devices)
        guard reader.kind(at: range) == .array else {
            throw reader.invalid("devices", at: range, expected: "an array of devices")
        }
        // Ranges first: reading a device moves the scanner away from the array.
        var elements: [Range<Int>] = []
        try reader.beginArray()
        while try reader.nextElement() { elements.append(try reader.skipValue()) }
        var devices: [DeviceInfo] = []
        devices.reserveCapacity(elements.count)
        for element in elements { devices.append(try device(at: element)) }
        return devices
    }

    /// `focus` of a `devices` reply: nil when absent, `.some(nil)` when null (docs/design.md §14).
    private mutating func focus() throws(ProtocolError) -> String?? {
        guard let range = fields[.focus] else { return nil }
        guard let present = reader.present(range) else { return .some(nil) }
        return .some(try reader.string(at: present, key: "focus"))
    }

    /// `input` of a `devices` reply; nil when absent (a daemon older than docs/design.md §15).
    private mutating func inputState() throws(ProtocolError) -> InputState? {
        guard let range = reader.present(fields[.input]) else { return nil }
        let fields = try reader.object(InputStateKey.self, at: range, key: "input")
        guard let stateRange = fields[.state] else { throw .missing("input.state") }
        let state = try reader.string(at: stateRange, key: "input.state")
        guard state == "active" || state == "paused" else {
            throw ProtocolError(.invalidValue, "invalid \"input.state\": expected \"active\" or \"paused\", got \(ProtocolError.quoted(state))")
        }
        guard state == "paused" else { return .active }
        // A reason from a newer daemon still reads as paused, for a reason this client
        // does not know: the session's, the likeliest.
        guard let reasonRange = reader.present(fields[.reason]) else { return .paused(.sessionInactive) }
        let reason = try reader.string(at: reasonRange, key: "input.reason")
        return .paused(InputState.Reason(rawValue: reason) ?? .sessionInactive)
    }

    private mutating func device(at range: Range<Int>) throws(ProtocolError) -> DeviceInfo {
        let fields = try reader.object(DeviceKey.self, at: range, key: "devices[]")
        func require(_ key: DeviceKey) throws(ProtocolError) -> Range<Int> {
            guard let range = fields[key] else { throw .missing("devices[].\(key.name)") }
            return range
        }
        let id = try reader.int(at: require(.id), key: "devices[].id")
        let name = try reader.string(at: require(.name), key: "devices[].name")
        var capabilities = DeviceCapabilities()
        for capability in try reader.strings(at: require(.caps), key: "devices[].caps") {
            // Names from a newer daemon are ignored, as the event log reader does.
            for (flag, flagName) in DeviceCapabilities.names where flagName == capability {
                capabilities.insert(flag)
            }
        }
        var path: String?
        if let range = reader.present(fields[.path]) { path = try reader.string(at: range, key: "devices[].path") }
        var containers: [String]?
        if let range = reader.present(fields[.containers]) {
            containers = try reader.strings(at: range, key: "devices[].containers")
        }
        var rules: [String]?
        if let range = reader.present(fields[.rules]) {
            rules = try reader.strings(at: range, key: "devices[].rules")
        }
        var device = DeviceInfo(id: id, name: name, capabilities: capabilities, path: path, containers: containers, rules: rules)
        if let range = reader.present(fields[.natural]) {
            device.naturalScrolling = try reader.sourced(at: range, key: "devices[].natural") { reader, range, key throws(ProtocolError) in try reader.bool(at: range, key: key) }
        }
        if let range = reader.present(fields[.speed]) {
            device.speed = try reader.sourced(at: range, key: "devices[].speed") { reader, range, key throws(ProtocolError) in try reader.number(at: range, key: key) }
        }
        return device
    }
}

extension ProtocolReader {
    /// `{"value":…,"source":"…"}`, the value read by `value`.
    mutating func sourced<Value>(
        at range: Range<Int>, key: String, _ value: (inout ProtocolReader, Range<Int>, String) throws(ProtocolError) -> Value
    ) throws(ProtocolError) -> DesktopInput.Sourced<Value> {
        let fields = try object(SourcedKey.self, at: range, key: key)
        guard let valueRange = fields[.value] else { throw .missing("\(key).value") }
        guard let sourceRange = fields[.source] else { throw .missing("\(key).source") }
        let read = try value(&self, valueRange, key + ".value")
        return DesktopInput.Sourced(read, source: try string(at: sourceRange, key: key + ".source"))
    }
}
