import NIOCore
import NIOEmbedded
import ScrollConfig
@testable import ScrollDaemon
import ScrollModel
import ScrollProtocol
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/design.md §16 on virtual time: a daemon's session, kept in its store's memory, taken back
/// by a new daemon — containers at rest at their last published offset, `seq` going on, the
/// connections' subscriptions and observations continuing, nothing sent twice.
@Suite("Restart without loss on an embedded loop")
struct RestoreTests {
    /// systemd's store as the core sees it: which connections it holds.
    final class Keeper: ConnectionKeeper {
        var kept: Set<Int> = []
        func keep(_ channel: Channel, descriptor: Int32?, number: Int) { kept.insert(number) }
        func forget(number: Int) { kept.remove(number) }
    }

    /// A daemon keeping its session in `buffer`.
    static func keeping(in buffer: SnapshotMemoryTests.Buffer, keeper: Keeper, restoring taken: (snapshot: RestartSnapshot, slots: [SnapshotMemory.Slot?])? = nil, connections: [Int] = []) throws -> EmbeddedDaemon {
        let daemon = try EmbeddedDaemon()
        let memory = SnapshotMemory(formatting: buffer.bytes, documentCapacity: 16 * 1024, slotCapacity: 8) { buffer.grow(to: $0) }
        daemon.core.keep(in: RestartStore(memory: memory, connections: keeper), restoring: taken, connections: connections)
        return daemon
    }

    static func newBuffer() -> SnapshotMemoryTests.Buffer {
        SnapshotMemoryTests.Buffer(size: SnapshotMemory.size(documentCapacity: 16 * 1024, slotCapacity: 8))
    }

    @Test func aRestartedDaemonTakesTheSessionBack() throws {
        let buffer = Self.newBuffer()
        let keeper = Keeper()
        let before = try Self.keeping(in: buffer, keeper: keeper)
        let app = try before.connect()
        let other = try before.connect()
        #expect(keeper.kept == [1, 2])
        var seen: [[String: Any]] = []
        for request in [
            #"{"op":"configure","container":"list","containerSize":{"width":400,"height":600},"contentSize":{"width":400,"height":20000},"id":1}"#,
            #"{"op":"subscribe","container":"list","id":2}"#,
            #"{"op":"subscribe","container":"main","rate":30,"id":3}"#,
            #"{"op":"observe","container":"list","of":"contentOffset.y","id":"offset"}"#,
            #"{"op":"scrollTo","container":"list","y":1234.5,"animation":"none","id":4}"#,
            #"{"op":"focus","container":"list","id":5}"#,
        ] {
            try app.send(request)
            seen += try app.drain()
        }
        #expect(seen.filter { $0["type"] as? String == "error" }.isEmpty)
        #expect(try other.request(#"{"op":"subscribe","container":"list","id":1}"#)?["type"] as? String == "state")
        seen = seen.filter { $0["type"] as? String == "state" && $0["container"] as? String == "list" }
        let lastSeq = try #require(seen.last?["seq"] as? Int)
        #expect((seen.last?["contentOffset"] as? [String: Any])?["y"] as? Double == 1234.5)
        _ = try other.drain()

        // The loop finishes its turn (the document is written once per turn), then the process
        // dies: what its memory holds is all the next one gets.
        before.loop.run()
        let taken = try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
        #expect(taken.snapshot.containers.map(\.name) == ["main", "list"])
        #expect(taken.snapshot.connections.map(\.number) == [1, 2])

        let after = try Self.keeping(in: Self.newBuffer(), keeper: keeper, restoring: taken, connections: [1, 2])
        #expect(after.core.instance == before.core.instance)
        let resumed = try after.reconnect(number: 1)
        let lines = try resumed.drain()
        // No welcome: the connection carries on. First the current states, then the observation
        // only if its value changed (it did not: the offset is the one last sent).
        #expect(lines.allSatisfy { $0["type"] as? String == "state" })
        let list = try #require(lines.first { $0["container"] as? String == "list" })
        #expect((list["contentOffset"] as? [String: Any])?["y"] as? Double == 1234.5)
        #expect(list["phase"] as? String == "idle")
        // At rest where it was, as if it had never moved: its scroll indicators hidden and no
        // hide to come (docs/design.md §22).
        let indicator = (list["indicators"] as? [String: Any])?["y"] as? [String: Any]
        #expect(indicator?["visible"] as? Bool == false)
        #expect(after.core.session.engine.nextDeadline == nil)
        #expect(list["seq"] as? Int == lastSeq + 1)
        #expect(lines.contains { $0["container"] as? String == "main" })

        let second = try after.reconnect(number: 2)
        let secondLines = try second.drain()
        #expect(secondLines.count == 1)
        #expect(secondLines.first?["seq"] as? Int == lastSeq + 1)

        // Requests work on the connection, and the subscription goes on with the next seq.
        try resumed.send(#"{"op":"scrollBy","container":"list","dy":100,"animation":"none","id":6}"#)
        let more = try resumed.drain()
        #expect(more.contains { $0["type"] as? String == "ok" })
        let moved = try #require(more.first { $0["type"] as? String == "state" && $0["container"] as? String == "list" })
        #expect(moved["seq"] as? Int == lastSeq + 2)
        #expect((moved["contentOffset"] as? [String: Any])?["y"] as? Double == 1334.5)
        let observation = try #require(more.first { $0["type"] as? String == "observation" })
        #expect(observation["old"] as? Double == 1234.5)
        #expect(observation["new"] as? Double == 1334.5)

        // The focus came back; a new connection sees `list` in its welcome and gets number 3.
        #expect(after.core.session.focus == "list")
        #expect(after.core.session.names == ["main", "list"])
        let newcomer = try after.connect()
        #expect(keeper.kept == [1, 2, 3])
        #expect(try newcomer.request(#"{"op":"get","container":"list","id":1}"#)?["seq"] as? Int == lastSeq + 2)
    }

    @Test func aRefusedSessionStartsEmptyAndGreetsItsConnectionsAnew() throws {
        let keeper = Keeper()
        keeper.kept = [4]
        let after = try Self.keeping(in: Self.newBuffer(), keeper: keeper, restoring: nil, connections: [4])
        let resumed = try after.reconnect(number: 4)
        let lines = try resumed.drain()
        #expect(lines.count == 1)
        #expect(lines.first?["type"] as? String == "welcome")
        #expect(try resumed.request(#"{"op":"ping","id":1}"#)?["type"] as? String == "pong")
        // Its number is kept, and a new connection gets the next one.
        _ = try after.connect()
        #expect(keeper.kept == [4, 5])
    }

    @Test func aConnectionThatClosesLeavesTheStore() throws {
        let keeper = Keeper()
        let daemon = try Self.keeping(in: Self.newBuffer(), keeper: keeper)
        let app = try daemon.connect()
        #expect(keeper.kept == [1])
        try app.channel.close().wait()
        #expect(keeper.kept.isEmpty)
    }

    /// Connections come and go in any order: the document lists each subscribed one once, in
    /// number order, and is written once per turn of the loop however many changes it made.
    @Test func theDocumentListsTheSubscribedConnectionsInOrderAfterChurn() throws {
        let buffer = Self.newBuffer()
        let before = try Self.keeping(in: buffer, keeper: Keeper())
        let clients = try (0..<5).map { _ in try before.connect() }
        for (number, client) in clients.enumerated().reversed() {
            try client.send(#"{"op":"subscribe","container":"main","id":\#(number)}"#)
        }
        try clients[1].channel.close().wait()
        try clients[3].send(#"{"op":"unsubscribe","container":"main","id":9}"#)
        let late = try before.connect()
        try late.send(#"{"op":"subscribe","container":"main","rate":30,"id":1}"#)
        before.loop.run()
        let taken = try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
        // 2 closed; 4 unsubscribed (listed, with nothing to take back but its socket).
        #expect(taken.snapshot.connections.map(\.number) == [1, 3, 4, 5, 6])
        #expect(taken.snapshot.connections.map(\.requests.count) == [1, 1, 0, 1, 1])
        guard case .subscribe("main", let rate?, _)? = taken.snapshot.connections.last?.requests.first else {
            Issue.record("connection 6's subscription is not in the document")
            return
        }
        #expect(abs(rate - 30) < 1e-6)
    }

    /// A connection's observations are kept in the order they were made (as its subscriptions
    /// are), whatever containers they observe: the store reads them from the connection, not
    /// from every container.
    @Test func aConnectionsObservationsAreKeptInTheOrderTheyWereMade() throws {
        let buffer = Self.newBuffer()
        let before = try Self.keeping(in: buffer, keeper: Keeper())
        let app = try before.connect()
        for request in [
            #"{"op":"configure","container":"b","id":1}"#,
            #"{"op":"observe","container":"b","of":"phase","id":"1"}"#,
            #"{"op":"observe","container":"main","of":"phase","id":"2"}"#,
            #"{"op":"observe","container":"b","of":"contentOffset.y","id":"3"}"#,
            #"{"op":"unobserve","id":"1"}"#,
            #"{"op":"observe","container":"main","of":"contentOffset.y","id":"1"}"#,
        ] {
            try app.send(request)
        }
        #expect(try app.drain().allSatisfy { $0["type"] as? String != "error" })
        before.loop.run()
        let taken = try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
        let observed = taken.snapshot.connections.first?.requests.map { request -> String in
            guard case let .observe(container, _, id, _) = request else { return "\(request)" }
            return "\(id.json) \(container)"
        }
        #expect(observed == [#""2" main"#, #""3" b"#, #""1" main"#])
    }

    /// A container's settings are encoded once and kept while only other things change (a
    /// pause, another container's configure): the document always holds the settings in force.
    @Test func theDocumentHoldsEachContainersSettingsInForce() throws {
        let buffer = Self.newBuffer()
        let daemon = try Self.keeping(in: buffer, keeper: Keeper())
        let app = try daemon.connect()
        func settings(of name: String) throws -> String {
            daemon.loop.run()
            let taken = try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
            let container = try #require(taken.snapshot.containers.first { $0.name == name })
            return "\(ProtocolValue.object(container.settings.map { ($0.key, $0.value) }))"
        }
        func send(_ requests: String...) throws {
            for request in requests { try app.send(request) }
            #expect(try app.drain().allSatisfy { $0["type"] as? String != "error" })
        }
        try send(#"{"op":"configure","container":"list","containerSize":{"width":100,"height":100},"rows":{"heights":[1,2,3]}}"#)
        #expect(try settings(of: "list").contains(#""containerSize":{"width":100.0,"height":100.0}"#))
        // Configured again in the same turn as another container's pause.
        try send(
            #"{"op":"configure","container":"list","containerSize":{"width":200,"height":100}}"#,
            #"{"op":"pause","container":"main"}"#
        )
        #expect(try settings(of: "list").contains(#""containerSize":{"width":200.0,"height":100.0}"#))
        try send(#"{"op":"resume","container":"main"}"#, #"{"op":"configure","container":"main","containerSize":{"width":300,"height":300}}"#)
        #expect(try settings(of: "list").contains(#""containerSize":{"width":200.0,"height":100.0}"#))
        #expect(try settings(of: "main").contains(#""containerSize":{"width":300.0,"height":300.0}"#))
        try send(#"{"op":"configure","container":"list","rows":{"insert":{"at":0,"count":1,"height":7}}}"#)
        #expect(try settings(of: "list").contains(#""runs":[[1,7.0],[1,1.0],[1,2.0],[1,3.0]]"#))
    }

    /// The document's containers written from settings encoded apart read as the whole value
    /// encodes them.
    @Test func aContainerEncodedWithItsSettingsApartIsTheSameJSON() {
        let container = RestartSnapshot.Container(
            name: "list \"1\"", settings: [ConfigureSetting(key: "containerSize", value: .object([("width", .double(1)), ("height", .integer(2))]))],
            seq: 7, offset: Point(x: 0.5, y: -3), paused: true, pausedBy: [2, 3], owner: 4, refreshing: true, headerHeight: 80
        )
        var whole: [UInt8] = [], apart: [UInt8] = []
        container.json.encode(into: &whole)
        container.encode(into: &apart, settings: RestartSnapshot.Container.encoded(container.settings))
        #expect(String(decoding: apart, as: UTF8.self) == String(decoding: whole, as: UTF8.self))
    }

    @Test func anOwnedContainerWhoseConnectionDidNotComeBackIsRemoved() throws {
        let buffer = Self.newBuffer()
        let keeper = Keeper()
        let before = try Self.keeping(in: buffer, keeper: keeper)
        let app = try before.connect()
        #expect(try app.request(#"{"op":"configure","container":"mine","owned":true,"id":1}"#)?["type"] as? String == "ok")
        before.loop.run()
        let taken = try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
        let after = try Self.keeping(in: Self.newBuffer(), keeper: keeper, restoring: taken, connections: [])
        #expect(after.core.session.names == ["main"])
    }

    @Test func pausesOwnersAndRatesComeBackWithTheirConnection() throws {
        let buffer = Self.newBuffer()
        let keeper = Keeper()
        let before = try Self.keeping(in: buffer, keeper: keeper)
        let app = try before.connect()
        for request in [
            #"{"op":"configure","container":"mine","owned":true,"id":1}"#,
            #"{"op":"pause","container":"mine","id":2}"#,
            #"{"op":"subscribe","container":"mine","rate":10,"id":3}"#,
            #"{"op":"observe","container":"mine","of":"phase","id":"p"}"#,
        ] {
            try app.send(request)
        }
        _ = try app.drain()
        before.loop.run()
        let taken = try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
        #expect(taken.snapshot.connections.first?.requests == [
            .subscribe(container: "mine", rate: 10),
            .observe(container: "mine", observation: .phase, id: RequestID("p")),
        ])
        #expect(taken.snapshot.containers.last?.owner == 1)
        #expect(taken.snapshot.containers.last?.pausedBy == [1])

        let after = try Self.keeping(in: Self.newBuffer(), keeper: keeper, restoring: taken, connections: [1])
        let resumed = try after.reconnect(number: 1)
        let lines = try resumed.drain()
        // The state says it is still paused; the phase did not change, so no observation.
        #expect(lines.count == 1)
        #expect(lines.first?["paused"] as? Bool == true)
        // Closing the connection undoes what it set: its owned container goes.
        try resumed.channel.close().wait()
        #expect(after.core.session.names == ["main"])
    }

    @Test func withoutAStoreNothingIsKept() throws {
        let daemon = try EmbeddedDaemon()
        _ = try daemon.connect()
        #expect(daemon.core.store == nil)
    }
}

extension EmbeddedDaemon {
    /// A connection taken back after a restart: it keeps `number`, and no welcome is read.
    func reconnect(number: Int) throws -> Connection {
        try open(restoring: number)
    }
}
