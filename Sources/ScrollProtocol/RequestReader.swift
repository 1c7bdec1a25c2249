import ScrollModel

/// The second pass over a request: its located keys read as the op needs them.
struct RequestReader {
    var reader: ProtocolReader
    let fields: ObjectFields<RequestKey>

    mutating func operation() throws(ProtocolError) -> Operation {
        guard let opRange = fields[.op] else { throw .missing("op") }
        let op = try reader.string(at: opRange, key: "op", expected: "a string", code: .badRequest)
        if let operation = Self.containerOperations[op] {
            return operation(try container())
        }
        switch op {
        case "subscribe":
            return .subscribe(container: try container(), rate: try rate(), wait: try wait())
        case "unsubscribe":
            return .unsubscribe(container: reader.present(fields[.container]) == nil ? nil : try container())
        case "configure":
            return try configure()
        case "scrollTo":
            let container = try container()
            let position = try position()
            return .scrollTo(container: container, position: position, animation: try animation() ?? .smooth)
        case "scrollBy":
            let container = try container()
            let delta = try axes(.dx, .dy)
            return .scrollBy(container: container, delta: delta, animation: try animation() ?? .smooth)
        case "focus":
            // `container` is required, and null clears the focus.
            guard fields[.container] != nil else { throw .missing("container") }
            return .focus(container: reader.present(fields[.container]) == nil ? nil : try container())
        case "observe":
            return try observe()
        case "unobserve":
            guard let range = fields[.id] else { throw .missing("id") }
            return .unobserve(id: RequestID(validated: reader.scanner.bytes, range: range))
        case "devices":
            return .devices
        case "reload":
            return .reload
        case "ping":
            return .ping
        default:
            throw ProtocolError(.unknownOp, "unknown op \(ProtocolError.quoted(op)) (expected one of: \(Self.ops))")
        }
    }

    /// The ops that name a container and nothing else.
    static let containerOperations: [String: @Sendable (_ container: String) -> Operation] = [
        "get": Operation.get, "pause": Operation.pause, "resume": Operation.resume, "remove": Operation.remove,
        "beginRefresh": Operation.beginRefresh, "endRefresh": Operation.endRefresh,
        "flashIndicators": Operation.flashIndicators,
    ]

    static let ops = "subscribe, unsubscribe, get, configure, scrollTo, scrollBy, pause, resume, remove, flashIndicators, focus, observe, unobserve, beginRefresh, endRefresh, devices, reload, ping"

    mutating func container() throws(ProtocolError) -> String {
        guard let range = fields[.container] else { throw .missing("container") }
        let name = try reader.string(at: range, key: "container", expected: "a non-empty string")
        guard !name.isEmpty else { throw reader.invalid("container", at: range, expected: "a non-empty string") }
        return name
    }

    /// `wait` (docs/design.md §20): a boolean, false when absent or null.
    mutating func wait() throws(ProtocolError) -> Bool {
        guard let range = reader.present(fields[.wait]) else { return false }
        return try reader.bool(at: range, key: "wait")
    }

    private mutating func rate() throws(ProtocolError) -> Double? {
        guard let range = reader.present(fields[.rate]) else { return nil }
        return try reader.number(at: range, key: "rate", in: Limits.subscriptionRate)
    }

    /// `x`/`y` or `dx`/`dy`: each optional (null is absent), at least one present.
    private mutating func axes(_ horizontal: RequestKey, _ vertical: RequestKey) throws(ProtocolError) -> AxisValues {
        var values = AxisValues()
        if let range = reader.present(fields[horizontal]) {
            values.x = try reader.quantity(at: range, key: horizontal.name)
        }
        if let range = reader.present(fields[vertical]) {
            values.y = try reader.quantity(at: range, key: vertical.name)
        }
        guard values.x != nil || values.y != nil else {
            throw ProtocolError(.badRequest, "missing \(ProtocolError.quoted(horizontal.name)) or \(ProtocolError.quoted(vertical.name))")
        }
        return values
    }

    mutating func animation() throws(ProtocolError) -> ScrollAnimation? {
        guard let range = reader.present(fields[.animation]) else { return nil }
        return try reader.animation(at: range)
    }

    // MARK: configure

    private mutating func configure() throws(ProtocolError) -> Operation {
        let container = try container()
        try rejectUnknownConfigureKeys()
        var located: [(range: Range<Int>, key: RequestKey, name: String)] = []
        for (key, name) in RequestKey.settings {
            if let range = fields[key] { located.append((range, key, name)) }
        }
        // Request order: a repeated key counts where its last value (the one used) is.
        located.sort { $0.range.lowerBound < $1.range.lowerBound }
        var settings: [ConfigureSetting] = []
        for (range, key, name) in located {
            settings.append(ConfigureSetting(key: name, value: try setting(key, at: range)))
        }
        var owned = false
        if let range = reader.present(fields[.owned]) {
            owned = try reader.bool(at: range, key: "owned")
        }
        return .configure(container: container, settings: settings, animation: try animation(), owned: owned)
    }

    private mutating func rejectUnknownConfigureKeys() throws(ProtocolError) {
        var first: (name: String, at: Int)?
        if let unknown = fields.firstUnknown {
            first = (reader.name(of: unknown.key), unknown.value.lowerBound)
        }
        for key in RequestKey.allCases where !key.isConfigureKey {
            if let range = fields[key], range.lowerBound < first?.at ?? .max {
                first = (key.name, range.lowerBound)
            }
        }
        if let first {
            throw ProtocolError(
                .invalidValue,
                "unknown key \(ProtocolError.quoted(first.name)) for configure (expected one of: \(RequestKey.configureKeys))"
            )
        }
    }

    /// A setting's value as the client wrote it, except that `header`, `rows` and `physics` must
    /// be objects (or null) whose member names become snake_case configuration keys.
    private mutating func setting(_ key: RequestKey, at range: Range<Int>) throws(ProtocolError) -> ProtocolValue {
        let value = try reader.value(at: range, key: key.name)
        guard key.hasConfigurationMembers else { return value }
        switch value {
        case .object(let members):
            // Two spellings of one key (`minHeight` and `min_height`, or `A` and `a`) would
            // otherwise reach the configuration as one key given twice.
            var spellings: [String: String] = [:]
            var snakeMembers: [(String, ProtocolValue)] = []
            snakeMembers.reserveCapacity(members.count)
            for (name, member) in members {
                let snake = KeyCase.snake(name)
                if let first = spellings.updateValue(name, forKey: snake) {
                    throw ProtocolError(
                        .badRequest,
                        "key \(ProtocolError.quoted(snake)) given twice in \(ProtocolError.quoted(key.name)), as \(ProtocolError.quoted(first)) and \(ProtocolError.quoted(name)); give each key once"
                    )
                }
                snakeMembers.append((snake, member))
            }
            return .object(snakeMembers)
        case .null:
            return .null
        default:
            throw reader.invalid(key.name, at: range, expected: "an object")
        }
    }
}
