import ScrollConfig
import ScrollLog
import ScrollModel
import ScrollProtocol

extension Command {
    /// The command a recorded line stands for (``SessionRecorder`` wrote it). `atStart`: the
    /// line opens the recording, where a reload of client 0 is the configuration the daemon
    /// was running, whose containers existed (and had published nothing) live.
    ///
    /// Recordings made before reloads and restores had lines of their own wrote them as
    /// requests of client 0 (`"op":"reload"` with its `configuration`, `"op":"restore"`);
    /// those still read as the same commands.
    public init(recorded line: RecordedRequest, atStart: Bool = false) throws(ProtocolError) {
        switch line.kind {
        case .reload:
            self = try Command.reload(from: ProtocolValue(parsing: line.json), line: line, atStart: atStart)
        case .restore:
            self = try Command.restore(from: ProtocolValue(parsing: line.json), at: line.time)
        case .desktop:
            let value = try ProtocolValue(parsing: line.json)
            guard let desktop = value[member: "desktop"] else {
                throw ProtocolError(.invalidValue, "a recorded desktop line needs its \"desktop\" object")
            }
            self = .desktop(try DesktopInput(recorded: desktop), at: line.time)
        case .request:
            let request: Request
            do {
                request = try RequestDecoder.decode(line.json)
            } catch {
                // An earlier version's reload or restore, which no client can send.
                let value = try ProtocolValue(parsing: line.json)
                switch value[member: "op"] {
                case .string("reload")?: self = try Command.reload(from: value, line: line, atStart: atStart)
                case .string("restore")?: self = try Command.restore(from: value, at: line.time)
                default: throw error
                }
                return
            }
            if case .reload = request.operation {
                self = try Command.reload(from: ProtocolValue(parsing: line.json), line: line, atStart: atStart)
                return
            }
            self = .request(request.operation, client: line.client, at: line.time)
        }
    }

    private static func reload(from value: ProtocolValue, line: RecordedRequest, atStart: Bool) throws(ProtocolError) -> Command {
        guard case .object(let members)? = value[member: "configuration"] else {
            throw ProtocolError(.invalidValue, "a recorded reload needs its \"configuration\" object")
        }
        var desktop = DesktopInput()
        if let recorded = value[member: "desktop"] { desktop = try DesktopInput(recorded: recorded) }
        do {
            var assignments: [(key: String, value: ConfigValue)] = []
            for (key, value) in members { assignments.append((key, try ConfigValue(value, key: key))) }
            var configuration = try Configuration(engineAssignments: assignments)
            // The desktop's settings in force then; none written: none.
            configuration.desktop = desktop
            return .reload(configuration, client: line.client, at: line.time, initial: atStart && line.client == 0)
        } catch {
            throw ProtocolError(.invalidValue, "recorded configuration: \(error.description)")
        }
    }

    private static func restore(from value: ProtocolValue, at time: Timestamp) throws(ProtocolError) -> Command {
        guard case .array(let items)? = value[member: "containers"] else {
            throw ProtocolError(.invalidValue, "a recorded restore needs its \"containers\" array")
        }
        var containers: [RestoredContainer] = []
        for item in items { containers.append(try RestoredContainer(recorded: item)) }
        let focus: String?
        switch value[member: "focus"] {
        case nil, .null?: focus = nil
        case .string(let name)?: focus = name
        default: throw ProtocolError(.invalidValue, "a recorded restore's \"focus\" must be a container's name or null")
        }
        return .restore(Restoration(containers: containers, focus: focus), at: time)
    }
}
