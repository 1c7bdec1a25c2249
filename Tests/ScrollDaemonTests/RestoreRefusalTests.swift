import Foundation
@testable import ScrollDaemon
import ScrollModel
import ScrollProtocol
import Testing

/// docs/design.md §16 and "Limits" against a stored session that does not check out: what it
/// holds is taken back only within the bounds a live daemon keeps — numbers that count on
/// without overflowing, publications a state could have, the limits on a connection's
/// observations — and what is left out is logged. What edits can produce comes back; a
/// follower of a container that did not come back hears `removed`, as when a container goes.
@Suite("Restart without loss: what a stored session may not bring back")
struct RestoreRefusalTests {
    /// A daemon taking back `taken` with the connections `numbers`, logging into `logs`; with
    /// the numbers it refused.
    static func keeping(
        restoring taken: (snapshot: RestartSnapshot, slots: [SnapshotMemory.Slot?])?, connections numbers: [Int],
        keeper: RestoreTests.Keeper = RestoreTests.Keeper(), logs: LogLines
    ) throws -> (daemon: EmbeddedDaemon, refused: [Int]) {
        let daemon = try EmbeddedDaemon(logs: logs)
        let buffer = RestoreTests.newBuffer()  // kept by the memory's `grow`
        let memory = SnapshotMemory(formatting: buffer.bytes, documentCapacity: 16 * 1024, slotCapacity: 8) { buffer.grow(to: $0) }
        let refused = daemon.core.keep(in: RestartStore(memory: memory, connections: keeper), restoring: taken, connections: numbers)
        return (daemon, refused)
    }

    static func document(nextClient: String = "2", connections: String = "[]") -> [UInt8] {
        Array(#"{"instance":"x","nextClient":\#(nextClient),"focus":null,"focusedBy":null,"containers":[],"connections":\#(connections)}"#.utf8)
    }

    static func offsetY(_ line: [String: Any]?) -> Double? {
        (line?["contentOffset"] as? [String: Any])?["y"] as? Double
    }

    /// `nextClient` 2^63 − 1 overflowed at the first new connection, and a descriptor named
    /// `client-9223372036854775807` at the start: both are refused.
    @Test func connectionNumbersPastTwoToThe53AreRefused() throws {
        #expect(try RestartSnapshot(decoding: Self.document(nextClient: "9007199254740992")).nextClientNumber == 1 << 53)
        for next in ["9223372036854775807", "0", "-9223372036854775808"] {
            #expect(throws: SnapshotError(#""nextClient" is not an integer from 1 to 2^53"#)) { try RestartSnapshot(decoding: Self.document(nextClient: next)) }
        }
        #expect(throws: SnapshotError(#"a connection's "number" is not an integer from 1 to 2^53"#)) {
            try RestartSnapshot(decoding: Self.document(connections: #"[{"number":-3,"requests":[]}]"#))
        }
        // Such a store is refused: the daemon starts fresh and numbers new connections from 1.
        let (buffer, memory) = SnapshotMemoryTests.memory()
        memory.write(document: Self.document(nextClient: "9223372036854775807"), slots: [])
        let stored = try? SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
        #expect(stored == nil)
        let (fresh, _) = try Self.keeping(restoring: stored, connections: [], logs: LogLines())
        #expect(try fresh.connect().request(#"{"op":"ping","id":1}"#)?["type"] as? String == "pong")
        #expect(fresh.core.connections.nextNumber == 2)

        let logs = LogLines()
        let keeper = RestoreTests.Keeper()
        keeper.kept = [3]
        let (after, refused) = try Self.keeping(restoring: nil, connections: [Int.max, 3], keeper: keeper, logs: logs)
        #expect(refused == [Int.max])
        #expect(logs.lines.contains("error: restart: connection 9223372036854775807 is not taken back (a connection's number is from 1 to 2^53); its socket is closed"))
        #expect(try after.reconnect(number: 3).drain().map { $0["type"] as? String } == ["welcome"])
        let newcomer = try after.connect()
        #expect(try newcomer.request(#"{"op":"ping","id":1}"#)?["type"] as? String == "pong")
        #expect(keeper.kept == [3, 4])
    }

    /// A slot's numbers as no publication has them, and the reason the log gives.
    struct Crafted: Sendable, CustomTestStringConvertible {
        var seq: Int?
        var y: Double
        var velocity: Double
        var problem: String
        var testDescription: String { problem }
    }

    static let crafted = [
        Crafted(seq: Int.max, y: 500, velocity: 0, problem: "seq 9223372036854775807 is not from 0 to 2^53"),
        Crafted(seq: (1 << 53) + 7, y: 500, velocity: 0, problem: "seq 9007199254740999 is not from 0 to 2^53"),
        Crafted(seq: nil, y: .infinity, velocity: -.infinity, problem: "offset.y inf is not a finite number within ±1e17"),
        Crafted(seq: nil, y: 1e300, velocity: -1e300, problem: "offset.y 1e+300 is not a finite number within ±1e17"),
    ]

    /// A container's slot holding a publication no state could have (a damaged or crafted store,
    /// its checksums intact): it is passed over, the document's seq and offset count, and
    /// nothing absurd reaches a subscriber or an observation's `old`.
    @Test(arguments: crafted)
    func aPublicationNoStateCouldHaveIsNotTakenBack(_ crafted: Crafted) throws {
        let buffer = RestoreTests.newBuffer()
        let before = try RestoreTests.keeping(in: buffer, keeper: RestoreTests.Keeper())
        let app = try before.connect()
        for request in [
            #"{"op":"configure","container":"list","containerSize":{"width":400,"height":600},"contentSize":{"width":400,"height":20000},"id":1}"#,
            #"{"op":"subscribe","container":"list","id":2}"#,
            #"{"op":"observe","container":"list","of":"contentOffset.y","id":"y"}"#,
            #"{"op":"observe","container":"list","of":"velocity.y","id":"v"}"#,
            #"{"op":"scrollTo","container":"list","y":500,"animation":"none","id":3}"#,
            // A change of the session: the document is written with list's seq and offset now.
            #"{"op":"focus","container":"list","id":4}"#,
        ] {
            try app.send(request)
        }
        #expect(try app.drain().allSatisfy { $0["type"] as? String != "error" })
        let lastSeq = try #require(try app.request(#"{"op":"get","container":"list","id":5}"#)?["seq"] as? Int)
        before.loop.run()
        // Both copies of list's slot (index 1), checksums intact.
        let seq = crafted.seq ?? lastSeq + 2
        for copy in [seq, seq - 1] {
            let slot = SnapshotMemory.Slot(
                seq: copy, time: 0, offset: Point(x: 0, y: crafted.y), velocity: Point(x: 0, y: crafted.velocity),
                phase: .decelerating, nameHash: SnapshotMemory.nameHash("list"))
            try #require(before.core.store).memory.write(slot, at: 1)
        }

        let taken = try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
        let logs = LogLines()
        let (after, _) = try Self.keeping(restoring: taken, connections: [1], logs: logs)
        #expect(logs.lines.contains("error: restart: container list's last publication is not taken back (\(crafted.problem)); the document's seq \(lastSeq) and offset count"))
        let lines = try after.reconnect(number: 1).drain()
        let state = try #require(lines.first)
        #expect(state["type"] as? String == "state" && state["seq"] as? Int == lastSeq + 1 && Self.offsetY(state) == 500)
        // Each observation sends its value anew, `old` unknown (null): nothing absurd.
        let observations = lines.dropFirst().map { "\($0["id"] ?? "") \($0["old"] is NSNull ? "null" : "\($0["old"] ?? "")") \($0["new"] ?? "")" }
        #expect(observations == ["y null 500", "v null 0"])
    }

    /// A stored connection with more observations than a connection may have (1000) gets the
    /// first 1000 back; the rest are refused, and the log says so naming the connection.
    @Test func aConnectionTakenBackIsHeldToTheObservationLimit() throws {
        let observations: [ScrollProtocol.Operation] = (0..<1005).map { .observe(container: "main", observation: .phase, id: RequestID("o\($0)")) }
        let snapshot = RestartSnapshot(
            instance: "i", nextClientNumber: 2, focus: nil, focusedBy: nil,
            containers: [RestartSnapshot.Container(name: "main", settings: [], seq: 3, offset: .zero, paused: false)],
            connections: [RestartSnapshot.Connection(number: 1, requests: [.subscribe(container: "main", rate: nil)] + observations)]
        )
        let logs = LogLines()
        let (after, _) = try Self.keeping(restoring: (snapshot, [nil]), connections: [1], logs: logs)
        let resumed = try after.reconnect(number: 1)
        let lines = try resumed.drain()
        #expect(lines.filter { $0["type"] as? String == "state" }.count == 1)
        #expect(lines.filter { $0["type"] as? String == "observation" }.count == Limits.observations)
        #expect(logs.lines.contains(
            "error: restart: connection 1: 5 of its 1006 stored subscriptions and observations refused: too many observations on this connection (at most 1000, waiting ones included)"))
        // The limit holds on: one more is refused.
        let more = try resumed.request(#"{"op":"observe","container":"main","of":"phase","id":"more"}"#)
        #expect(more?["code"] as? String == "too_large")
    }

    /// docs/design.md §21: an edit may leave sticky rows past the end (ignored). Stored as the
    /// edit left them, they come back so; they were refused as a configuration naming rows it
    /// does not have, and the container was lost at every restart.
    @Test func stickyRowsAnEditLeftPastTheEndComeBackAsTheEditLeftThem() throws {
        let buffer = RestoreTests.newBuffer()
        let before = try RestoreTests.keeping(in: buffer, keeper: RestoreTests.Keeper())
        let app = try before.connect()
        for request in [
            #"{"op":"configure","container":"feed","containerSize":{"width":400,"height":100},"rows":{"count":100,"height":50,"sticky":[0,50,90]},"id":1}"#,
            #"{"op":"configure","container":"feed","rows":{"remove":{"at":10,"count":80}},"id":2}"#,
            #"{"op":"scrollTo","container":"feed","y":300,"animation":"none","id":3}"#,
            #"{"op":"subscribe","container":"feed","id":4}"#,
        ] {
            try app.send(request)
        }
        #expect(try app.drain().allSatisfy { $0["type"] as? String != "error" })
        before.loop.run()
        let taken = try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
        let logs = LogLines()
        let (after, _) = try Self.keeping(restoring: taken, connections: [1], logs: logs)
        #expect(after.core.session.names == ["main", "feed"])
        #expect(!logs.lines.contains { $0.contains("not taken back") }, "\(logs.lines)")
        let resumed = try after.reconnect(number: 1)
        let state = try #require(try resumed.drain().first)
        #expect(state["container"] as? String == "feed" && Self.offsetY(state) == 300)
        #expect("\(after.core.session.settings(ofContainer: "feed"))" == "\(before.core.session.settings(ofContainer: "feed"))")
        // And they go on as in the daemon that never restarted: rows back up to 100, row 90
        // is a sticky row again.
        for (daemon, connection) in [(before, app), (after, resumed)] {
            try connection.send(#"{"op":"configure","container":"feed","rows":{"insert":{"at":20,"count":80,"height":50}},"id":5}"#)
            try connection.send(#"{"op":"scrollTo","container":"feed","y":4900,"animation":"none","id":6}"#)
            _ = try connection.drain()
            let end = try #require(try connection.request(#"{"op":"get","container":"feed","id":7}"#))
            #expect((end["stickyRow"] as? [String: Any])?["row"] as? Int == 90, "\(daemon === before ? "live" : "restarted")")
        }
    }

    /// A stored subscription or observation whose container did not come back (refused, or
    /// owned by a connection that did not) hears `removed` once, as when its container goes;
    /// one that waits waits again, and one that was waiting for a container not yet made waits
    /// on without a word.
    @Test func aFollowerOfAContainerThatDidNotComeBackHearsRemoved() throws {
        let container = { (name: String, settings: [ConfigureSetting], owner: Int?) in
            RestartSnapshot.Container(name: name, settings: settings, seq: 1, offset: .zero, paused: false, owner: owner)
        }
        let snapshot = RestartSnapshot(
            instance: "i", nextClientNumber: 3, focus: nil, focusedBy: nil,
            containers: [
                container("main", [], nil), container("bad", [ConfigureSetting(key: "containerSize", value: .string("x"))], nil),
                container("owned", [], 2),
            ],
            connections: [RestartSnapshot.Connection(number: 1, requests: [
                .subscribe(container: "bad", rate: nil), .observe(container: "bad", observation: .phase, id: RequestID("p")),
                .subscribe(container: "owned", rate: nil, wait: true), .subscribe(container: "later", rate: nil, wait: true),
            ])]
        )
        let logs = LogLines()
        let (after, _) = try Self.keeping(restoring: (snapshot, [nil, nil, nil]), connections: [1], logs: logs)
        #expect(logs.lines.contains { $0.hasPrefix("error: restart: container bad not taken back: containers.bad.containerSize") }, "\(logs.lines)")
        let resumed = try after.reconnect(number: 1)
        let lines = try resumed.drain()
        #expect(lines.map { "\($0["type"] ?? "") \($0["container"] ?? "")" } == ["removed bad", "removed owned"])
        // Those that wait start when their containers come.
        let other = try after.connect()
        for name in ["owned", "later", "bad"] {
            #expect(try other.request(#"{"op":"configure","container":"\#(name)","id":1}"#)?["type"] as? String == "ok")
        }
        #expect(try resumed.drain().map { "\($0["type"] ?? "") \($0["container"] ?? "")" } == ["state owned", "state later"])
    }
}
