import ScrollModel
import ScrollProtocol

/// A request as the client writes it: `op`, then its members in order, each a JSON value. It is
/// checked before anything is sent or registered, so that a request the daemon would refuse for
/// its bytes alone fails here with the daemon's own error and leaves the connection as it was:
/// a number JSON cannot carry (NaN, ±infinity) is `invalid_value` naming its key, and a line
/// longer than the daemon reads (docs/design.md §7: it would close the connection) is
/// `too_large`.
struct RequestLine: Sendable {
    var op: String
    var members: [(String, ProtocolValue)]

    init(_ op: String, _ members: [(String, ProtocolValue)] = []) {
        self.op = op
        self.members = members
    }

    /// The line with `id` first (the daemon finds it even in a line it refuses to read further),
    /// and its newline.
    func encoded(id: RequestID?) throws(ScrollClientError) -> [UInt8] {
        for (key, value) in members { try Self.check(value, key: key) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128)
        bytes.append(UInt8(ascii: "{"))
        if let id {
            bytes.append(contentsOf: #""id":"#.utf8)
            bytes.append(contentsOf: id.json.utf8)
            bytes.append(UInt8(ascii: ","))
        }
        bytes.append(contentsOf: #""op":"#.utf8)
        ProtocolValue.string(op).encode(into: &bytes)
        for (key, value) in members {
            bytes.append(UInt8(ascii: ","))
            ProtocolValue.string(key).encode(into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            value.encode(into: &bytes)
        }
        bytes.append(UInt8(ascii: "}"))
        guard bytes.count <= WireProtocol.maximumLineLength else {
            throw .daemon(code: .tooLarge, message: ProtocolError.tooLarge().message + " (this \(op) request has \(bytes.count))")
        }
        bytes.append(UInt8(ascii: "\n"))
        return bytes
    }

    /// Refuses a non-finite number anywhere in `value`, naming where it is as the daemon names
    /// a value it refuses (`invalid "y": …`, `invalid "containerSize.width": …`).
    static func check(_ value: ProtocolValue, key: String) throws(ScrollClientError) {
        switch value {
        case .double(let number) where !number.isFinite:
            throw .daemon(code: .invalidValue, message: "invalid \"\(key)\": expected a finite number, got \(number)")
        case .array(let items):
            for (index, item) in items.enumerated() { try check(item, key: "\(key)[\(index)]") }
        case .object(let members):
            for (name, member) in members { try check(member, key: "\(key).\(name)") }
        default:
            break
        }
    }
}

extension ProtocolValue {
    /// A number as JSON carries it (a non-finite one is refused when the line is encoded).
    static func number(_ value: Double) -> ProtocolValue { .double(value) }

    /// `{"width":…,"height":…}`.
    static func size(_ size: Size) -> ProtocolValue {
        .object([("width", .double(size.width)), ("height", .double(size.height))])
    }

    /// `{"top":…,"leading":…,"bottom":…,"trailing":…}`.
    static func insets(_ insets: EdgeInsets) -> ProtocolValue {
        .object([
            ("top", .double(insets.top)), ("leading", .double(insets.leading)),
            ("bottom", .double(insets.bottom)), ("trailing", .double(insets.trailing)),
        ])
    }

    /// An `animation` value: a preset's name when it is one, else the spring by the duration and
    /// bounce it was made from, or by stiffness and damping.
    static func animation(_ animation: ScrollAnimation) -> ProtocolValue {
        switch animation {
        case .none: return .string("none")
        case .smooth: return .string("smooth")
        case .snappy: return .string("snappy")
        case .bouncy: return .string("bouncy")
        case .spring(let spring):
            if let parameters = spring.parameters {
                return .object([("spring", .object([("duration", .double(parameters.duration)), ("bounce", .double(parameters.bounce))]))])
            }
            return .object([("spring", .object([("stiffness", .double(spring.stiffness)), ("damping", .double(spring.damping))]))])
        }
    }

    /// The value as a number, whichever way JSON wrote it.
    var doubleValue: Double? {
        switch self {
        case .integer(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}
