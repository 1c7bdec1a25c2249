import ScrollModel

/// Encodes requests for scrollctl and Swift clients: the inverse of `RequestDecoder`, with the
/// camelCase keys docs/design.md §7 shows, e.g.
/// `{"op":"scrollTo","container":"main","y":100,"animation":"smooth","id":1}`.
///
/// `configure` settings are written under their protocol names (`insets` as `contentInsets`,
/// `scroll_target` as `scrollTarget`, members of `header`, `rows` and `physics` in camelCase),
/// so that decoding the line gives back the same request. No newline is appended.
public enum RequestEncoder {
    public static func encode(_ request: Request, into buffer: inout [UInt8]) {
        let operation = request.operation
        JSONOutput.raw("{\"op\":", &buffer)
        JSONOutput.string(operation.name, &buffer)
        if let container = operation.container {
            JSONOutput.member("container", container, &buffer)
        } else if case .focus = operation {
            JSONOutput.raw(",\"container\":null", &buffer)
        }
        switch operation {
        case let .subscribe(_, rate, wait):
            if let rate { JSONOutput.member("rate", rate, &buffer) }
            if wait { JSONOutput.raw(",\"wait\":true", &buffer) }
        case let .configure(_, settings, animation, owned):
            for setting in settings { encode(setting, &buffer) }
            if let animation { encode(animation, &buffer) }
            if owned { JSONOutput.raw(",\"owned\":true", &buffer) }
        case let .scrollTo(_, position, animation):
            encode(position, &buffer)
            encode(animation, &buffer)
        case let .observe(_, observation, _, wait):
            if wait { JSONOutput.raw(",\"wait\":true", &buffer) }
            encode(observation, &buffer)
        case let .scrollBy(_, delta, animation):
            if let dx = delta.x { JSONOutput.member("dx", dx, &buffer) }
            if let dy = delta.y { JSONOutput.member("dy", dy, &buffer) }
            encode(animation, &buffer)
        case .unsubscribe, .get, .pause, .resume, .remove, .focus, .devices, .reload, .ping, .beginRefresh, .endRefresh, .flashIndicators:
            break
        case .unobserve:
            break
        }
        // observe and unobserve carry their id in the operation (it names the observation).
        let id: RequestID?
        switch operation {
        case .observe(_, _, let named, _), .unobserve(let named): id = named
        default: id = request.id
        }
        if let id {
            JSONOutput.raw(",\"id\":", &buffer)
            buffer.append(contentsOf: id.json.utf8)
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// A `scrollTo`'s target: `x`, `y`, `row`, `anchor` and `edge`, those it has.
    private static func encode(_ position: ScrollPosition, _ buffer: inout [UInt8]) {
        if let x = position.point.x { JSONOutput.member("x", x, &buffer) }
        if let y = position.point.y { JSONOutput.member("y", y, &buffer) }
        if let row = position.row { JSONOutput.member("row", row, &buffer) }
        if let anchor = position.anchor { JSONOutput.member("anchor", anchor.fraction, &buffer) }
        if let edge = position.edge { JSONOutput.member("edge", edge.rawValue, &buffer) }
    }

    /// An `observe`'s key (`of`) and its options, in order.
    private static func encode(_ observation: ScrollObservation, _ buffer: inout [UInt8]) {
        JSONOutput.member("of", observation.key, &buffer)
        for (name, value) in observation.options {
            buffer.append(UInt8(ascii: ","))
            JSONOutput.string(name, &buffer)
            buffer.append(UInt8(ascii: ":"))
            value.encode(into: &buffer)
        }
    }

    public static func encode(_ request: Request) -> String {
        var buffer: [UInt8] = []
        encode(request, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    private static func encode(_ animation: ScrollAnimation, _ buffer: inout [UInt8]) {
        JSONOutput.key("animation", &buffer)
        animation.encode(into: &buffer)
    }

    private static func encode(_ setting: ConfigureSetting, _ buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: ","))
        var value = setting.value
        switch setting.key {
        case "insets":
            JSONOutput.raw("\"contentInsets\"", &buffer)
        case "scroll_target":
            JSONOutput.raw("\"scrollTarget\"", &buffer)
        case "directional_lock", "snap_type", "snap_proximity", "snap_stop", "indicator_min_length", "indicator_linger_ms":
            JSONOutput.string(KeyCase.camel(setting.key), &buffer)
        case "header", "rows", "physics":
            JSONOutput.string(setting.key, &buffer)
            if case .object(let members) = value {
                value = .object(members.map { (KeyCase.camel($0.0), $0.1) })
            }
        default:
            JSONOutput.string(setting.key, &buffer)
        }
        buffer.append(UInt8(ascii: ":"))
        value.encode(into: &buffer)
    }
}
