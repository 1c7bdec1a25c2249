@testable import ScrollDaemon
import ScrollModel
import Testing

/// docs/design.md §16 with §21's state: a container held at `lo − r` by a running refresh, and a
/// quick-return (`enterAlways`) header partly shown, come back from a restart exactly as they
/// were: the refresh still running, the header as far out as it was.
@Suite("Restart without loss: a refresh and a quick-return header come back as they were")
struct RestoreAppBarsTests {
    static func offsetY(_ state: [String: Any]?) -> Double? {
        (state?["contentOffset"] as? [String: Any])?["y"] as? Double
    }

    static func header(_ state: [String: Any]?) -> (height: Double?, progress: Double?) {
        let header = state?["header"] as? [String: Any]
        return (header?["height"] as? Double, header?["progress"] as? Double)
    }

    @Test func aRefreshAndAnEnterAlwaysHeaderSurviveARestart() throws {
        let buffer = RestoreTests.newBuffer()
        let keeper = RestoreTests.Keeper()
        let before = try RestoreTests.keeping(in: buffer, keeper: keeper)
        let app = try before.connect()
        for request in [
            // 30 rows of 50 px, pull to refresh 80 / 60: while refreshing the top is lo − r = −60.
            #"{"op":"configure","container":"feed","containerSize":{"width":400,"height":300},"rows":{"count":30,"height":50},"refresh":{"threshold":80,"height":60},"id":1}"#,
            // A quick-return bar 20…100 px: far down it is collapsed (20); 30 px back it is 50.
            #"{"op":"configure","container":"bar","containerSize":{"width":400,"height":300},"contentSize":{"width":400,"height":5000},"header":{"min_height":20,"max_height":100,"mode":"enterAlways","snap":false},"id":2}"#,
            #"{"op":"subscribe","container":"feed","id":3}"#,
            #"{"op":"subscribe","container":"bar","id":4}"#,
            #"{"op":"beginRefresh","container":"feed","id":5}"#,
            #"{"op":"scrollTo","container":"feed","y":-100,"animation":"none","id":6}"#,
            #"{"op":"scrollTo","container":"bar","y":2000,"animation":"none","id":7}"#,
            #"{"op":"scrollBy","container":"bar","dy":-30,"animation":"none","id":8}"#,
        ] {
            try app.send(request)
            let lines = try app.drain()
            #expect(lines.allSatisfy { $0["type"] as? String != "error" }, "\(request): \(lines)")
        }
        let feed = try #require(try app.request(#"{"op":"get","container":"feed","id":9}"#))
        #expect(feed["refreshing"] as? Bool == true && Self.offsetY(feed) == -60)
        let bar = try #require(try app.request(#"{"op":"get","container":"bar","id":10}"#))
        #expect(Self.offsetY(bar) == 1970 && Self.header(bar).height == 50 && Self.header(bar).progress == 0.625)

        before.loop.run()
        let taken = try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
        let stored = Dictionary(uniqueKeysWithValues: taken.snapshot.containers.map { ($0.name, $0) })
        #expect(stored["feed"]?.refreshing == true && stored["bar"]?.refreshing == false)
        #expect(stored["bar"]?.headerHeight == 50 && stored["feed"]?.headerHeight == nil)

        let after = try RestoreTests.keeping(in: RestoreTests.newBuffer(), keeper: keeper, restoring: taken, connections: [1])
        let resumed = try after.reconnect(number: 1)
        let lines = try resumed.drain()
        let feedAfter = try #require(lines.last { $0["container"] as? String == "feed" })
        #expect(feedAfter["refreshing"] as? Bool == true)
        #expect(Self.offsetY(feedAfter) == -60)
        #expect(feedAfter["phase"] as? String == "idle")
        let barAfter = try #require(lines.last { $0["container"] as? String == "bar" })
        #expect(Self.offsetY(barAfter) == 1970)
        #expect(Self.header(barAfter).height == 50 && Self.header(barAfter).progress == 0.625)

        // The refresh runs on: it ends on request, and the feed springs back to lo = 0.
        try resumed.send(#"{"op":"endRefresh","container":"feed","id":11}"#)
        #expect(try resumed.drain().contains { $0["type"] as? String == "ok" })
        after.advance(5)
        _ = try resumed.drain()
        let ended = try #require(try resumed.request(#"{"op":"get","container":"feed","id":12}"#))
        #expect(ended["refreshing"] as? Bool == false && Self.offsetY(ended) == 0)
        // The bar goes on from 50: 10 px more back shows 60.
        try resumed.send(#"{"op":"scrollBy","container":"bar","dy":-10,"animation":"none","id":13}"#)
        _ = try resumed.drain()
        let barMoved = try #require(try resumed.request(#"{"op":"get","container":"bar","id":14}"#))
        #expect(Self.header(barMoved).height == 60)
    }

    /// The slot carries both: a publication written in place, read back by the next process.
    @Test func theSlotRoundTripsRefreshingAndTheHeaderHeight() throws {
        let buffer = SnapshotMemoryTests.Buffer(size: SnapshotMemory.size(documentCapacity: 4096, slotCapacity: 2))
        let memory = SnapshotMemory(formatting: buffer.bytes, documentCapacity: 4096, slotCapacity: 2) { buffer.grow(to: $0) }
        let snapshot = RestartSnapshot(
            instance: "i", nextClientNumber: 1, focus: nil, focusedBy: nil,
            containers: [RestartSnapshot.Container(name: "feed", settings: [], seq: 3, offset: Point(x: 0, y: 0), paused: false)],
            connections: []
        )
        let hash = SnapshotMemory.nameHash("feed")
        memory.write(document: snapshot.encoded(), slots: [SnapshotMemory.Slot(seq: 3, time: 1, offset: .zero, velocity: .zero, phase: .idle, nameHash: hash)])
        memory.write(SnapshotMemory.Slot(seq: 4, time: 2, offset: Point(x: 0, y: -60), velocity: .zero, phase: .idle, nameHash: hash,
                                         refreshing: true, headerHeight: 42.5), at: 0)
        let taken = try SnapshotMemory.read(UnsafeRawBufferPointer(buffer.bytes))
        let feed = try #require(taken.snapshot.containers.first)
        #expect(feed.seq == 4 && feed.offset.y == -60 && feed.refreshing && feed.headerHeight == 42.5)
        #expect(taken.snapshot.restoredContainers.first?.refreshing == true)
        #expect(taken.snapshot.restoredContainers.first?.headerHeight == 42.5)
    }
}
