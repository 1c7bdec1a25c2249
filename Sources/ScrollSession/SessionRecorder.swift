import ScrollConfig
import ScrollLog
import ScrollModel
import ScrollProtocol

/// Writes what a session applied as event log lines (docs/design.md §17): input events as `record`
/// writes them, stamped with the time they were applied at, and every request that changed
/// state as `{"t":T,"type":"request","client":N,"request":{…}}`.
///
/// The daemon's own configuration — in force when recording begins, and after each reload —
/// is written as a `reload` request of client 0 whose `configuration` member holds every
/// assignment that decides the engine (``Configuration/engineAssignments``): a replay then runs
/// the daemon's containers whatever configuration file it finds.
///
/// Lines collect in ``pending``; the owner writes them out (the session does no I/O).
public struct SessionRecorder: Sendable {
    /// Lines not yet written out, each ending in a newline.
    public private(set) var pending: [UInt8] = []
    private let writer = EventLogWriter()

    /// A recorder whose first line is `header`.
    public init(header: EventLogHeader) {
        writer.appendHeaderLine(header, to: &pending)
    }

    /// Hands over the lines collected so far.
    public mutating func takePending() -> [UInt8] {
        defer { pending.removeAll(keepingCapacity: true) }
        return pending
    }

    mutating func record(_ event: ScrollEvent) {
        writer.appendLine(event, to: &pending)
    }

    mutating func record(_ operation: Operation, client: Int, at time: Timestamp) {
        appendRequest(client: client, at: time) { RequestEncoder.encode(Request(operation: operation), into: &$0) }
    }

    mutating func recordConfiguration(_ configuration: Configuration, client: Int, at time: Timestamp) {
        appendRequest(client: client, at: time) { buffer in
            let assignments = configuration.engineAssignments.map { ($0.key, ProtocolValue($0.value)) }
            ProtocolValue.object([("op", .string("reload")), ("configuration", .object(assignments))]).encode(into: &buffer)
        }
    }

    /// What a restart took back (docs/design.md §16), as one request of client 0:
    /// `{"op":"restore","containers":[…],"focus":NAME|null}`, each container as
    /// ``RestoredContainer/recorded``. No client can send it; only a recording holds it.
    mutating func recordRestore(_ containers: [RestoredContainer], focus: String?, at time: Timestamp) {
        appendRequest(client: 0, at: time) { buffer in
            ProtocolValue.object([
                ("op", .string("restore")),
                ("containers", .array(containers.map(\.recorded))),
                ("focus", focus.map(ProtocolValue.string) ?? .null),
            ]).encode(into: &buffer)
        }
    }

    private mutating func appendRequest(client: Int, at time: Timestamp, _ request: (inout [UInt8]) -> Void) {
        pending.append(contentsOf: "{\"t\":\(time),\"type\":\"request\",\"client\":\(client),\"request\":".utf8)
        request(&pending)
        pending.append(contentsOf: "}\n".utf8)
    }
}

extension Session {
    /// Starts recording: the configuration in force becomes the recording's first request line,
    /// stamped `time` (client 0), so that the recording replays from the daemon's containers.
    public mutating func startRecording(_ recorder: SessionRecorder, at time: Timestamp) {
        self.recorder = recorder
        self.recorder!.recordConfiguration(configuration, client: 0, at: Swift.max(time, engine.now))
    }

    /// Applies a request line of a recorded session (docs/design.md §17) as the daemon applied it.
    /// `atStart`: the line opens the recording, where a client-0 `reload` is the configuration
    /// the daemon was running, whose containers existed (and had published nothing) live.
    public mutating func apply(_ recorded: RecordedRequest, atStart: Bool = false, _ publish: (Publication) -> Void) throws(ProtocolError) {
        let request = try ProtocolValue(parsing: recorded.json)
        if request[member: "op"] == .string("reload") {
            guard case .object(let members)? = request[member: "configuration"] else {
                throw ProtocolError(.invalidValue, "a recorded reload needs its \"configuration\" object")
            }
            do {
                var assignments: [(key: String, value: ConfigValue)] = []
                for (key, value) in members { assignments.append((key, try ConfigValue(value, key: key))) }
                let initial = atStart && recorded.client == 0
                try reload(Configuration(engineAssignments: assignments), client: recorded.client, at: recorded.time, announcingNew: !initial, publish)
            } catch {
                throw ProtocolError(.invalidValue, "recorded configuration: \(error.description)")
            }
            return
        }
        if request[member: "op"] == .string("restore") {
            return try applyRestore(request, at: recorded.time, publish)
        }
        try perform(RequestDecoder.decode(recorded.json).operation, client: recorded.client, at: recorded.time, publish)
    }
}
