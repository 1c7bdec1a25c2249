import ScrollModel
import ScrollProtocol
import ScrollSession

/// What a restart takes back (docs/design.md §16): the session's containers with their settings,
/// where each last published, the focus and who set it, and each connection's subscriptions and
/// observations — as the requests that made them, replayed on the connection taken back.
///
/// The document is JSON (the daemon's own value type, ``ProtocolValue``): readable with any
/// tool from /proc/PID/fd, and versioned by the memory layout around it (``SnapshotMemory``).
package struct RestartSnapshot: Hashable, Sendable {
    package struct Container: Hashable, Sendable {
        package var name: String
        package var settings: [ConfigureSetting]
        /// The seq and state of the last publication known when the document was written; the
        /// container's slot (``SnapshotMemory/Slot``) has newer ones.
        package var seq: Int
        package var offset: Point
        package var paused: Bool
        /// The connection whose `pause` is in force, whose `configure` created it `owned`.
        package var pausedBy: [Int] = []
        package var owner: Int?
        /// Whether a refresh was running, and the header's height (docs/design.md §21): as of
        /// the same publication as `seq`.
        package var refreshing = false
        package var headerHeight: Double?
    }

    package struct Connection: Hashable, Sendable {
        /// The connection's number (docs/design.md §17), also its name in the store: `client-N`.
        package var number: Int
        /// Its `subscribe` and `observe` requests in force, in the order they were made.
        package var requests: [Operation]
    }

    package var instance: String
    package var nextClientNumber: Int
    package var focus: String?
    package var focusedBy: Int?
    package var containers: [Container]
    package var connections: [Connection]
    /// What reading the store passed over (a container's last publication whose numbers no
    /// publication has), one log line each; not part of the document.
    package var notes: [String] = []

    /// The session as ``Session/restore(_:focus:at:_:)`` takes it back.
    package var restoredContainers: [RestoredContainer] {
        containers.map {
            RestoredContainer(
                name: $0.name, settings: $0.settings, seq: $0.seq, offset: $0.offset, paused: $0.paused,
                refreshing: $0.refreshing, headerHeight: $0.headerHeight
            )
        }
    }
}

extension RestartSnapshot {
    /// The document's JSON.
    package func encoded() -> [UInt8] {
        var containerBytes: [UInt8] = []
        for (index, container) in containers.enumerated() {
            if index > 0 { containerBytes.append(UInt8(ascii: ",")) }
            container.json.encode(into: &containerBytes)
        }
        return Self.document(
            instance: instance, nextClientNumber: nextClientNumber, focus: focus, focusedBy: focusedBy,
            containers: containerBytes, connections: Array(connections.map { $0.encoded() }.joined(separator: [UInt8(ascii: ",")]))
        )
    }

    /// The document from its parts, the containers and the connections already encoded and
    /// joined with commas (the
    /// daemon keeps those and re-encodes only what changed: a new subscriber costs one
    /// connection's bytes, not every connection's).
    package static func document(instance: String, nextClientNumber: Int, focus: String?, focusedBy: Int?, containers: [UInt8], connections: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(128 + containers.count + connections.count)
        bytes += "{\"instance\":".utf8
        ProtocolValue.string(instance).encode(into: &bytes)
        bytes += ",\"nextClient\":\(nextClientNumber),\"focus\":".utf8
        (focus.map(ProtocolValue.string) ?? .null).encode(into: &bytes)
        bytes += ",\"focusedBy\":\(focusedBy.map(String.init) ?? "null"),\"containers\":[".utf8
        bytes += containers
        bytes += "],\"connections\":[".utf8
        bytes += connections
        bytes += "]}".utf8
        return bytes
    }

    /// Reads a document ``encoded()`` wrote; a missing or mistyped member is refused, naming it.
    package init(decoding bytes: [UInt8]) throws(SnapshotError) {
        let value: ProtocolValue
        do throws(ProtocolError) {
            value = try ProtocolValue(parsing: bytes)
        } catch {
            throw SnapshotError("the session document is not JSON: \(error.message)")
        }
        var containers: [Container] = []
        for item in try value.array("containers") { containers.append(try Container(json: item)) }
        var connections: [Connection] = []
        for item in try value.array("connections") { connections.append(try Connection(json: item)) }
        let nextClientNumber = try value.int("nextClient")
        // The next connection's number, counted on from: 2^63 - 1 overflowed at the first one.
        guard Limits.connectionNumbers.contains(nextClientNumber) else { throw SnapshotError("\"nextClient\" is not an integer from 1 to 2^53") }
        self.init(
            instance: try value.string("instance"), nextClientNumber: nextClientNumber,
            focus: try value.optionalString("focus"), focusedBy: try value.optionalInt("focusedBy"),
            containers: containers, connections: connections
        )
    }
}

extension RestartSnapshot.Container {
    var json: ProtocolValue {
        .object([("name", .string(name)), ("settings", .object(settings.map { ($0.key, $0.value) }))] + members)
    }

    /// What `json` encodes after the name and settings.
    private var members: [(String, ProtocolValue)] {
        [
            ("seq", .integer(seq)),
            ("x", .double(offset.x)), ("y", .double(offset.y)),
            ("paused", .bool(paused)),
            ("pausedBy", .array(pausedBy.map(ProtocolValue.integer))),
            ("owner", owner.map(ProtocolValue.integer) ?? .null),
            ("refreshing", .bool(refreshing)),
            ("headerHeight", headerHeight.map(ProtocolValue.double) ?? .null),
        ]
    }

    /// `settings` as `json` encodes them.
    static func encoded(_ settings: [ConfigureSetting]) -> [UInt8] {
        var bytes: [UInt8] = []
        ProtocolValue.object(settings.map { ($0.key, $0.value) }).encode(into: &bytes)
        return bytes
    }

    /// Appends the container as `json` encodes it, with its settings encoded already
    /// (``encoded(_:)``; `settings` itself is not read): they are most of a container, and
    /// change only when it is configured.
    func encode(into bytes: inout [UInt8], settings encodedSettings: [UInt8]) {
        bytes += #"{"name":"#.utf8
        ProtocolValue.string(name).encode(into: &bytes)
        bytes += #","settings":"#.utf8
        bytes += encodedSettings
        var rest: [UInt8] = []
        ProtocolValue.object(members).encode(into: &rest)
        bytes.append(UInt8(ascii: ","))
        bytes += rest.dropFirst()
    }

    init(json: ProtocolValue) throws(SnapshotError) {
        guard case .object(let members)? = json[member: "settings"] else { throw SnapshotError("a container has no \"settings\" object") }
        let seq = try json.int("seq")
        guard Limits.sequence.contains(seq) else { throw SnapshotError("\"seq\" is not an integer from 0 to 2^53") }
        self.init(
            name: try json.string("name"), settings: members.map { ConfigureSetting(key: $0.0, value: $0.1) },
            seq: seq, offset: Point(x: try json.double("x"), y: try json.double("y")),
            paused: try json.bool("paused"), pausedBy: try json.intList("pausedBy"), owner: try json.optionalInt("owner"),
            refreshing: try json.bool("refreshing"), headerHeight: try json.optionalDouble("headerHeight")
        )
    }
}

extension RestartSnapshot.Connection {
    /// `{"number":N,"requests":[…]}`, each request as the request encoder writes it.
    package func encoded() -> [UInt8] {
        var bytes: [UInt8] = Array("{\"number\":\(number),\"requests\":[".utf8)
        for (index, operation) in requests.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            RequestEncoder.encode(Request(operation: operation), into: &bytes)
        }
        bytes += "]}".utf8
        return bytes
    }

    init(json: ProtocolValue) throws(SnapshotError) {
        var requests: [Operation] = []
        for item in try json.array("requests") {
            var bytes: [UInt8] = []
            item.encode(into: &bytes)
            do throws(ProtocolError) {
                requests.append(try RequestDecoder.decode(bytes).operation)
            } catch {
                throw SnapshotError("a stored request does not decode: \(error.message)")
            }
        }
        let number = try json.int("number")
        guard Limits.connectionNumbers.contains(number) else { throw SnapshotError("a connection's \"number\" is not an integer from 1 to 2^53") }
        self.init(number: number, requests: requests)
    }
}

/// Why a stored session is refused: the daemon says so and starts with an empty session.
package struct SnapshotError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) {
        self.message = message
    }

    package var description: String { message }
}

extension ProtocolValue {
    fileprivate func member(_ name: String) throws(SnapshotError) -> ProtocolValue {
        guard let value = self[member: name] else { throw SnapshotError("the member \"\(name)\" is missing") }
        return value
    }

    fileprivate func string(_ name: String) throws(SnapshotError) -> String {
        guard case .string(let s) = try member(name) else { throw SnapshotError("\"\(name)\" is not a string") }
        return s
    }

    fileprivate func int(_ name: String) throws(SnapshotError) -> Int {
        guard case .integer(let i) = try member(name) else { throw SnapshotError("\"\(name)\" is not an integer") }
        return i
    }

    fileprivate func double(_ name: String) throws(SnapshotError) -> Double {
        switch try member(name) {
        case .double(let d): return d
        case .integer(let i): return Double(i)
        default: throw SnapshotError("\"\(name)\" is not a number")
        }
    }

    fileprivate func bool(_ name: String) throws(SnapshotError) -> Bool {
        guard case .bool(let b) = try member(name) else { throw SnapshotError("\"\(name)\" is not a boolean") }
        return b
    }

    fileprivate func array(_ name: String) throws(SnapshotError) -> [ProtocolValue] {
        guard case .array(let items) = try member(name) else { throw SnapshotError("\"\(name)\" is not an array") }
        return items
    }

    fileprivate func optionalString(_ name: String) throws(SnapshotError) -> String? {
        if case .null = try member(name) { return nil }
        return try string(name)
    }

    fileprivate func optionalDouble(_ name: String) throws(SnapshotError) -> Double? {
        if case .null = try member(name) { return nil }
        return try double(name)
    }

    fileprivate func optionalInt(_ name: String) throws(SnapshotError) -> Int? {
        if case .null = try member(name) { return nil }
        return try int(name)
    }

    /// A list of integers; a store written before a pause could have several holders has one
    /// integer, or null for none.
    fileprivate func intList(_ name: String) throws(SnapshotError) -> [Int] {
        switch try member(name) {
        case .null: return []
        case .integer(let i): return [i]
        case .array(let items):
            return try items.map { item throws(SnapshotError) in
                guard case .integer(let i) = item else { throw SnapshotError("\"\(name)\" holds something other than integers") }
                return i
            }
        default: throw SnapshotError("\"\(name)\" is not a list of integers")
        }
    }
}
