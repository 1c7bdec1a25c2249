import ScrollJSON
import ScrollModel

/// An event line. Keys may come in any order and the meaning of a key depends on `type`, so
/// the line is read in two passes: the first validates all of it and notes where the value of
/// each known key starts (the last one wins, as in most JSON readers); the second reads the
/// values the type needs. Each value is scanned at most twice, so the cost stays linear.
struct EventLine {
    /// The largest `t` a log may hold, either side of 0 (see `time(at:)`).
    static let timeLimit: Int64 = 1 << 53
    enum Field: Int {
        case t, dev, type, name, caps, v120, deg, delta, fingers, cancelled, client, request, slot, x, y

        /// Matched on the raw bytes by length first: this runs for every key of every line.
        init?(_ raw: UnsafeRawBufferPointer) {
            func equals(_ name: StaticString) -> Bool { raw.equals(name) }
            switch raw.count {
            case 1 where raw[0] == UInt8(ascii: "t"): self = .t
            case 1 where raw[0] == UInt8(ascii: "x"): self = .x
            case 1 where raw[0] == UInt8(ascii: "y"): self = .y
            case 4 where equals("slot"): self = .slot
            case 3 where equals("dev"): self = .dev
            case 3 where equals("deg"): self = .deg
            case 4 where equals("type"): self = .type
            case 4 where equals("name"): self = .name
            case 4 where equals("caps"): self = .caps
            case 4 where equals("v120"): self = .v120
            case 5 where equals("delta"): self = .delta
            case 6 where equals("client"): self = .client
            case 7 where equals("fingers"): self = .fingers
            case 7 where equals("request"): self = .request
            case 9 where equals("cancelled"): self = .cancelled
            default: return nil
            }
        }
    }

    /// The event types of docs/design.md §3, recognised on the raw bytes of the `type` value so
    /// that the common case makes no String and hashes nothing.
    private enum EventType {
        case deviceAdded, deviceRemoved, wheel, finger, continuous, holdBegin, holdEnd, request, reload, restore, desktop
        case touchDown, touchMotion, touchUp, touchCancel

        init?(_ raw: UnsafeRawBufferPointer) {
            func equals(_ name: StaticString) -> Bool { raw.equals(name) }
            switch raw.count {
            case 5 where equals("wheel"): self = .wheel
            case 6 where equals("finger"): self = .finger
            case 6 where equals("reload"): self = .reload
            case 7 where equals("request"): self = .request
            case 7 where equals("restore"): self = .restore
            case 7 where equals("desktop"): self = .desktop
            case 8 where equals("hold_end"): self = .holdEnd
            case 10 where equals("continuous"): self = .continuous
            case 10 where equals("hold_begin"): self = .holdBegin
            case 12 where equals("device_added"): self = .deviceAdded
            case 14 where equals("device_removed"): self = .deviceRemoved
            case 10 where equals("touch_down"): self = .touchDown
            case 12 where equals("touch_motion"): self = .touchMotion
            case 8 where equals("touch_up"): self = .touchUp
            case 12 where equals("touch_cancel"): self = .touchCancel
            default: return nil
            }
        }

        var name: String {
            switch self {
            case .deviceAdded: "device_added"
            case .deviceRemoved: "device_removed"
            case .wheel: "wheel"
            case .finger: "finger"
            case .continuous: "continuous"
            case .holdBegin: "hold_begin"
            case .holdEnd: "hold_end"
            case .request: "request"
            case .reload: "reload"
            case .restore: "restore"
            case .desktop: "desktop"
            case .touchDown: "touch_down"
            case .touchMotion: "touch_motion"
            case .touchUp: "touch_up"
            case .touchCancel: "touch_cancel"
            }
        }
    }

    /// Where each known key's value starts; absent keys stay nil.
    struct Offsets {
        var t, dev, type, name, caps, v120, deg, delta, fingers, cancelled, client, request, slot, x, y: Int?

        subscript(field: Field) -> Int? {
            get {
                switch field {
                case .t: t
                case .dev: dev
                case .type: type
                case .name: name
                case .caps: caps
                case .v120: v120
                case .deg: deg
                case .delta: delta
                case .fingers: fingers
                case .cancelled: cancelled
                case .client: client
                case .request: request
                case .slot: slot
                case .x: x
                case .y: y
                }
            }
            set {
                switch field {
                case .t: t = newValue
                case .dev: dev = newValue
                case .type: type = newValue
                case .name: name = newValue
                case .caps: caps = newValue
                case .v120: v120 = newValue
                case .deg: deg = newValue
                case .delta: delta = newValue
                case .fingers: fingers = newValue
                case .cancelled: cancelled = newValue
                case .client: client = newValue
                case .request: request = newValue
                case .slot: slot = newValue
                case .x: x = newValue
                case .y: y = newValue
                }
            }
        }
    }

    var scanner: JSONScanner
    var offsets = Offsets()
    let lineNumber: Int
    var record = EventLogError.Record.event(type: nil)

    private init(_ line: UnsafeRawBufferPointer, lineNumber: Int) {
        scanner = JSONScanner(line)
        self.lineNumber = lineNumber
    }

    static func parse(_ line: UnsafeRawBufferPointer, lineNumber: Int) throws(EventLogError) -> EventLogLine {
        if let event = CanonicalEventLine.parse(line) { return .event(event) }
        return try parseInTwoPasses(line, lineNumber: lineNumber)
    }

    /// The general reader: any key order, any JSON spacing, and the errors.
    static func parseInTwoPasses(_ line: UnsafeRawBufferPointer, lineNumber: Int) throws(EventLogError) -> EventLogLine {
        var reader = EventLine(line, lineNumber: lineNumber)
        do {
            try reader.locateFields()
        } catch {
            throw EventLogError(line: lineNumber, problem: .syntax(error))
        }
        return try reader.interpret()
    }

    private mutating func locateFields() throws(JSONError) {
        try scanner.beginObject()
        while let key = try scanner.nextKey() {
            let field = scanner.withKeyBytes(key) { Field($0) }
            let range = try scanner.skipValue()
            if let field { offsets[field] = range.lowerBound }
        }
        try scanner.finish()
    }

    private mutating func interpret() throws(EventLogError) -> EventLogLine {
        guard let typeOffset = offsets.type else { throw missing("type") }
        scanner.position = typeOffset
        guard (try? scanner.peekValueKind()) == .string, let token = try? scanner.scanString() else {
            throw invalid("type", at: typeOffset, expected: "a string")
        }
        // Checked before `t` and `dev`: a type from the future may not have them.
        guard let type = scanner.withKeyBytes(token, { EventType($0) }) else {
            let name = scanner.decodeString(token)
            record = .event(type: name)
            return .warning(EventLogWarning(line: lineNumber, kind: .unknownEventType(name)))
        }
        record = .event(type: type.name)
        let time = try time(at: require(.t, "t"))
        switch type {
        case .request: return .request(try recordedRequest(at: time))
        case .reload, .restore, .desktop:
            return .request(try recordedCommand(type == .reload ? .reload : type == .restore ? .restore : .desktop, at: time))
        default: break
        }
        let device = try int(at: require(.dev, "dev"), key: "dev")
        return .event(ScrollEvent(time: time, device: device, kind: try eventKind(type)))
    }

    /// What an input event of `type` says, from its keys (docs/design.md §5).
    private mutating func eventKind(_ type: EventType) throws(EventLogError) -> ScrollEvent.Kind {
        let kind: ScrollEvent.Kind
        switch type {
        case .deviceAdded:
            let name = try require(.name, "name")
            guard let deviceName = string(at: name) else { throw invalid("name", at: name, expected: "a string") }
            kind = .deviceAdded(name: deviceName, capabilities: try capabilities(at: require(.caps, "caps")))
        case .wheel:
            let v120 = try axes(at: require(.v120, "v120"), key: "v120")
            var degrees: AxisValues?
            if let deg = offsets.deg, !isNull(at: deg) { degrees = try axes(at: deg, key: "deg") }
            kind = .wheel(v120: v120, degrees: degrees)
        case .finger:
            kind = .finger(try axes(at: require(.delta, "delta"), key: "delta"))
        case .continuous:
            kind = .continuous(try axes(at: require(.delta, "delta"), key: "delta"))
        case .holdBegin:
            kind = .holdBegin(fingers: try int(at: require(.fingers, "fingers"), key: "fingers"))
        case .holdEnd:
            let fingers = try int(at: require(.fingers, "fingers"), key: "fingers")
            let cancelled = try require(.cancelled, "cancelled")
            scanner.position = cancelled
            guard (try? scanner.peekValueKind()) == .bool, let value = try? scanner.readBool() else {
                throw invalid("cancelled", at: cancelled, expected: "true or false")
            }
            kind = .holdEnd(fingers: fingers, cancelled: value)
        case .deviceRemoved:
            kind = .deviceRemoved
        case .touchDown, .touchMotion:
            let slot = try touchSlot()
            let point = Point(x: try coordinate(.x, "x"), y: try coordinate(.y, "y"))
            kind = type == .touchDown ? .touchDown(slot: slot, at: point) : .touchMotion(slot: slot, at: point)
        case .touchUp:
            kind = .touchUp(slot: try touchSlot())
        case .touchCancel:
            kind = .touchCancel(slot: try touchSlot())
        case .request, .reload, .restore, .desktop:
            preconditionFailure("recorded commands are read by recordedRequest(at:) and recordedCommand(_:at:)")
        }
        return kind
    }

    /// docs/design.md §17: `{"t":T,"type":"request","client":N,"request":{…}}`. The request object
    /// is kept as its JSON text: reading it is the wire protocol's business, not the log's.
    private mutating func recordedRequest(at time: Int64) throws(EventLogError) -> RecordedRequest {
        let client = try int(at: require(.client, "client"), key: "client")
        let offset = try require(.request, "request")
        scanner.position = offset
        guard (try? scanner.peekValueKind()) == .object, let range = try? scanner.skipValue() else {
            throw invalid("request", at: offset, expected: "an object")
        }
        return RecordedRequest(time: time, client: client, json: Array(UnsafeRawBufferPointer(rebasing: scanner.bytes[range])))
    }

    /// docs/event-log.md: `reload` (with its `client`), `restore` and `desktop` (client 0, the
    /// daemon). The whole line is kept as JSON text: its members are the session's to read.
    private mutating func recordedCommand(_ kind: RecordedRequest.Kind, at time: Int64) throws(EventLogError) -> RecordedRequest {
        let client = kind == .reload ? try int(at: require(.client, "client"), key: "client") : 0
        return RecordedRequest(time: time, client: client, kind: kind, json: Array(scanner.bytes))
    }
}

extension UnsafeRawBufferPointer {
    /// Whether these bytes are exactly `name`'s UTF-8.
    fileprivate func equals(_ name: StaticString) -> Bool {
        name.withUTF8Buffer { elementsEqual($0) }
    }
}
