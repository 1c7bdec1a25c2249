import ScrollJSON
import ScrollModel

/// Encodes the daemon's lines (docs/design.md §4, §7) into a caller-owned buffer, without the
/// newline, so that one buffer can serve every reply of a connection.
///
/// Every reply starts with `"type"`, followed by `"id"` when the request had one.
public enum ReplyEncoder {
    /// `{"type":"welcome","protocol":1,"server":"scrolld 1.0.0","containers":["main"],
    /// "features":["record-requests"]}`; `server` is "scrolld <version>", `features` the
    /// extensions (docs/design.md §12–§19) the daemon implements.
    /// `focus` (docs/design.md §14) is written when given: `"focus":"carousel"`, or `"focus":null`
    /// for `.some(nil)`.
    public static func welcome(server: String, containers: [String], features: [String] = [], instance: String? = nil, focus: String?? = nil, into buffer: inout [UInt8]) {
        JSONOutput.raw("{\"type\":\"welcome\"", &buffer)
        JSONOutput.member("protocol", WireProtocol.version, &buffer)
        JSONOutput.member("server", server, &buffer)
        JSONOutput.member("containers", containers, &buffer)
        JSONOutput.member("features", features, &buffer)
        if let instance { JSONOutput.member("instance", instance, &buffer) }
        if let focus { JSONOutput.member("focus", focus, &buffer) }
        buffer.append(UInt8(ascii: "}"))
    }

    /// `{"type":"ok"}` or `{"type":"ok","id":7}`.
    public static func ok(id: RequestID?, into buffer: inout [UInt8]) {
        JSONOutput.raw("{\"type\":\"ok\"", &buffer)
        JSONOutput.id(id, &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// `{"type":"pong"}` or `{"type":"pong","id":7}`.
    public static func pong(id: RequestID?, into buffer: inout [UInt8]) {
        JSONOutput.raw("{\"type\":\"pong\"", &buffer)
        JSONOutput.id(id, &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// `{"type":"error","id":7,"code":"unknown_op","message":"…"}`, without `id` when the error
    /// has none.
    public static func error(_ error: ProtocolError, into buffer: inout [UInt8]) {
        self.error(code: error.code.rawValue, message: error.message, id: error.id, into: &buffer)
    }

    public static func error(code: String, message: String, id: RequestID?, into buffer: inout [UInt8]) {
        JSONOutput.raw("{\"type\":\"error\"", &buffer)
        JSONOutput.id(id, &buffer)
        JSONOutput.member("code", code, &buffer)
        JSONOutput.member("message", message, &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// The state line of docs/design.md §4. Broadcasts have no `id`; the reply to a `get` echoes
    /// the request's right after `type`: `{"type":"state","id":7,"container":"main",…}`.
    public static func state(_ state: ScrollState, container: String, seq: Int, paused: Bool = false, id: RequestID? = nil, into buffer: inout [UInt8]) {
        var encoder = StateEncoder()
        encoder.encode(state, container: container, seq: seq, paused: paused, id: id, into: &buffer)
    }

    /// `{"type":"waiting","container":"log","id":3}`: a `subscribe` or `observe` with `wait`
    /// waits for a container that does not exist (docs/design.md §20).
    public static func waiting(container: String, id: RequestID?, into buffer: inout [UInt8]) {
        JSONOutput.raw("{\"type\":\"waiting\"", &buffer)
        JSONOutput.member("container", container, &buffer)
        JSONOutput.id(id, &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// `{"type":"removed","container":"list"}`: the container is gone (removed, or its owner's
    /// connection closed), and with it the subscription and observations of this connection.
    public static func removed(container: String, into buffer: inout [UInt8]) {
        JSONOutput.raw("{\"type\":\"removed\"", &buffer)
        JSONOutput.member("container", container, &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// docs/design.md §13: `{"type":"observation","id":I,"container":C,"of":KEY,"seq":S,"t":T,
    /// "old":…,"new":…}`; `old` is null in the first message.
    public static func observation(
        id: RequestID, container: String, of key: String, seq: Int, time: Timestamp,
        old: ObservationValue?, new: ObservationValue, into buffer: inout [UInt8]
    ) {
        observationPrefix(id: id, container: container, of: key, into: &buffer)
        observationRest(seq: seq, time: time, old: old, new: new, into: &buffer)
    }

    /// An observation's first members, the same in every message of one observation:
    /// `{"type":"observation","id":I,"container":C,"of":KEY`. A server keeps them and writes
    /// only ``observationRest(seq:time:old:new:into:)`` per message.
    public static func observationPrefix(id: RequestID?, container: String, of key: String, into buffer: inout [UInt8]) {
        JSONOutput.raw("{\"type\":\"observation\"", &buffer)
        JSONOutput.id(id, &buffer)
        JSONOutput.member("container", container, &buffer)
        JSONOutput.member("of", key, &buffer)
    }

    /// An observation after its prefix: `,"seq":S,"t":T,"old":…,"new":…}`.
    public static func observationRest(seq: Int, time: Timestamp, old: ObservationValue?, new: ObservationValue, into buffer: inout [UInt8]) {
        observationTimes(seq: seq, time: time, &buffer)
        if let old { encode(old, &buffer) } else { JSONOutput.raw("null", &buffer) }
        JSONOutput.key("new", &buffer)
        encode(new, &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// `,"seq":S,"t":T,"old":`.
    private static func observationTimes(seq: Int, time: Timestamp, _ buffer: inout [UInt8]) {
        JSONOutput.member("seq", seq, &buffer)
        JSONOutput.member("t", Int(time), &buffer)
        JSONOutput.key("old", &buffer)
    }

    private static func encode(_ value: ObservationValue, _ buffer: inout [UInt8]) {
        switch value {
        case .phase(let phase): JSONOutput.string(phase.rawValue, &buffer)
        case .number(let number): JSONOutput.double(number, &buffer)
        case .bool(let flag): JSONOutput.raw(flag ? "true" : "false", &buffer)
        case .visibleRows(let rows):
            JSONOutput.raw("{\"first\":", &buffer)
            if let first = rows.first { JSONOutput.int(first, &buffer) } else { JSONOutput.raw("null", &buffer) }
            JSONOutput.member("last", rows.last, &buffer)
            buffer.append(UInt8(ascii: "}"))
        case .null: JSONOutput.raw("null", &buffer)
        case .source(let origin):
            JSONOutput.raw("{\"device\":", &buffer)
            JSONOutput.int(origin.device, &buffer)
            JSONOutput.member("name", origin.name, &buffer)
            JSONOutput.member("kind", origin.kind.rawValue, &buffer)
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// `{"type":"devices","id":7,"devices":[{"id":3,"name":"…","caps":["wheel","finger"],
    /// "path":"/dev/input/event5","containers":["main"],"rules":["mouse"]}],"input":{"state":"active","reason":null}}`;
    /// `path`, `containers` and `rules` (the `[input.devices.NAME]` rules that match it) appear
    /// only when known. `focus`, when given, follows the list (docs/design.md §14):
    /// `,"focus":"carousel"` or `,"focus":null`; `input` says whether input is read
    /// (docs/design.md §15).
    ///
    /// With the desktop's settings (docs/design.md §23) each device also has
    /// `"natural":{"value":true,"source":"desktop:kde"}` and `"speed":{"value":1.5,"source":"config"}`,
    /// and the reply `"reducedMotion":{"value":false,"source":"default"}`.
    public static func devices(_ devices: [DeviceInfo], focus: String?? = nil, input: InputState = .active, reducedMotion: DesktopInput.Sourced<Bool>? = nil, id: RequestID?, into buffer: inout [UInt8]) {
        JSONOutput.raw("{\"type\":\"devices\"", &buffer)
        JSONOutput.id(id, &buffer)
        JSONOutput.raw(",\"devices\":[", &buffer)
        for (i, device) in devices.enumerated() {
            if i > 0 { buffer.append(UInt8(ascii: ",")) }
            JSONOutput.raw("{\"id\":", &buffer)
            JSONOutput.int(device.id, &buffer)
            JSONOutput.member("name", device.name, &buffer)
            JSONOutput.member("caps", DeviceCapabilities.names.filter { device.capabilities.contains($0.0) }.map(\.1), &buffer)
            if let path = device.path { JSONOutput.member("path", path, &buffer) }
            if let containers = device.containers { JSONOutput.member("containers", containers, &buffer) }
            if let rules = device.rules { JSONOutput.member("rules", rules, &buffer) }
            if let natural = device.naturalScrolling {
                sourced("natural", natural.value ? "true" : "false", natural.source, &buffer)
            }
            if let speed = device.speed {
                var number: [UInt8] = []
                JSONOutput.double(speed.value, &number)
                sourced("speed", String(decoding: number, as: UTF8.self), speed.source, &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        }
        buffer.append(UInt8(ascii: "]"))
        if let focus { JSONOutput.member("focus", focus, &buffer) }
        if let reducedMotion {
            sourced("reducedMotion", reducedMotion.value ? "true" : "false", reducedMotion.source, &buffer)
        }
        JSONOutput.raw(",\"input\":{\"state\":", &buffer)
        JSONOutput.string(input.stateName, &buffer)
        JSONOutput.member("reason", input.reason?.rawValue, &buffer)
        JSONOutput.raw("}}", &buffer)
    }

    /// `,"KEY":{"value":VALUE,"source":"SOURCE"}`.
    private static func sourced(_ key: String, _ value: String, _ source: String, _ buffer: inout [UInt8]) {
        buffer.append(contentsOf: ",\"\(key)\":{\"value\":\(value),\"source\":".utf8)
        JSONOutput.string(source, &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// `{"type":"reloaded","id":7,"ok":true,"file":"/path"|null,"message":"…"}`.
    public static func reloaded(_ result: ReloadResult, id: RequestID?, into buffer: inout [UInt8]) {
        JSONOutput.raw("{\"type\":\"reloaded\"", &buffer)
        JSONOutput.id(id, &buffer)
        JSONOutput.member("ok", result.ok, &buffer)
        JSONOutput.member("file", result.file, &buffer)
        JSONOutput.member("message", result.message, &buffer)
        buffer.append(UInt8(ascii: "}"))
    }

    /// Any reply, e.g. one a client decoded; `.unknown` writes just its type.
    public static func encode(_ reply: Reply, into buffer: inout [UInt8]) {
        switch reply {
        case let .welcome(_, server, containers):
            welcome(server: server, containers: containers, into: &buffer)
        case .ok(let id):
            ok(id: id, into: &buffer)
        case .pong(let id):
            pong(id: id, into: &buffer)
        case let .error(code, message, id):
            error(code: code, message: message, id: id, into: &buffer)
        case .state(let line):
            state(line.state, container: line.container, seq: line.seq, paused: line.paused, id: line.id, into: &buffer)
        case let .devices(id, list, input, focus, reducedMotion):
            devices(list, focus: focus, input: input ?? .active, reducedMotion: reducedMotion, id: id, into: &buffer)
        case let .reloaded(id, result):
            reloaded(result, id: id, into: &buffer)
        case .observation(let message):
            observationPrefix(id: message.id, container: message.container, of: message.of, into: &buffer)
            observationTimes(seq: message.seq, time: message.time, &buffer)
            (message.old ?? .null).encode(into: &buffer)
            JSONOutput.key("new", &buffer)
            message.new.encode(into: &buffer)
            buffer.append(UInt8(ascii: "}"))
        case .removed(let container):
            removed(container: container, into: &buffer)
        case .unknown(let type):
            JSONOutput.raw("{\"type\":", &buffer)
            JSONOutput.string(type, &buffer)
            buffer.append(UInt8(ascii: "}"))
        }
    }

    /// The line as a String (tests, tools); servers use the buffer variants.
    public static func encode(_ reply: Reply) -> String {
        var buffer: [UInt8] = []
        encode(reply, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }
}
