import Foundation
import NIOCore
import NIOEmbedded
import ScrollDaemon
import ScrollLog
import ScrollModel
import Testing

/// docs/design.md §19 on virtual time: what a closed connection leaves behind is undone, also when
/// the connection breaks in the middle of the daemon handing out a frame.
@Suite("Lifetimes on an embedded loop")
struct LifetimeTests {
    /// The crash found with examples/feed.py: an app that owned, observed and subscribed to a
    /// container exited with states unread; the daemon's next write to it failed inside the
    /// frame's delivery, and removing the container right there left the observations of that
    /// frame pointing past the end of the feeds.
    @Test func aConnectionThatBreaksWhileAFrameIsDeliveredLeavesNothingBehind() throws {
        let daemon = try EmbeddedDaemon()
        let failing = FailingWrites()
        let app = try daemon.connect(failing: failing)
        #expect(try app.request(#"{"op":"configure","container":"feed","owned":true,"id":1}"#)?["type"] as? String == "ok")
        #expect(try app.request(#"{"op":"observe","container":"feed","of":"contentOffset.y","id":2}"#)?["type"] as? String == "observation")
        #expect(try app.request(#"{"op":"subscribe","container":"feed","id":3}"#)?["type"] as? String == "state")
        #expect(try app.request(#"{"op":"scrollTo","container":"feed","y":1000,"id":4}"#) != nil)
        _ = try app.drain()
        let other = try daemon.connect()
        #expect(try other.request(#"{"op":"observe","container":"main","of":"phase","id":1}"#)?["type"] as? String == "observation")

        // The next frame's write to the app fails.
        failing.armed = true
        daemon.advance(0.02)
        daemon.loop.run()

        let gone = try other.request(#"{"op":"get","container":"feed","id":2}"#)
        #expect(gone?["code"] as? String == "unknown_container")
        #expect(try other.request(#"{"op":"ping","id":3}"#)?["type"] as? String == "pong")
    }

    /// A reload keeps the containers clients created, and they stay theirs: an owned one still
    /// goes with its connection, `remove` still removes one, and the recording's reload line
    /// holds the file's containers only, so that a replay's reload keeps them the same way.
    /// (A user trial found a reload counting them as the configuration file's from then on.)
    @Test func containersCreatedByRequestsStayTheirsAcrossAReload() throws {
        let daemon = try EmbeddedDaemon()
        let recording = MemoryRecording()
        daemon.core.startRecording(to: recording, header: EventLogHeader(created: "2026-11-26T00:00:00Z", source: "test"))
        let app = try daemon.connect()
        let other = try daemon.connect()
        #expect(try app.request(#"{"op":"configure","container":"feed","owned":true,"id":1}"#)?["type"] as? String == "ok")
        #expect(try other.request(#"{"op":"configure","container":"side","id":1}"#)?["type"] as? String == "ok")
        _ = try app.drain()
        _ = try other.drain()
        let reloaded = try other.request(#"{"op":"reload","id":2}"#)
        #expect(reloaded?["type"] as? String == "reloaded" && reloaded?["ok"] as? Bool == true, "\(String(describing: reloaded))")
        #expect(try other.request(#"{"op":"remove","container":"side","id":3}"#)?["type"] as? String == "ok")
        _ = try other.drain()

        try app.channel.close().wait()
        daemon.loop.run()
        #expect(try other.request(#"{"op":"get","container":"feed","id":4}"#)?["code"] as? String == "unknown_container")

        let reloads = recording.text.split(separator: "\n").filter { $0.contains(#""type":"reload""#) }
        #expect(reloads.count == 2)  // the configuration at the start, and the client's reload
        #expect(reloads.allSatisfy { $0.contains("containers.main.") && !$0.contains("containers.side.") && !$0.contains("containers.feed.") })
    }

    /// A connection that owned many followed containers closes: each follower hears every
    /// `removed`, in the order the containers were made, in one write (one `send(2)` on a
    /// socket), not one write a container: forty followers of a thousand such containers
    /// held every other client for most of a second.
    @Test func aClosingOwnerTellsEachFollowerOfAllItsContainersInOneWrite() throws {
        let daemon = try EmbeddedDaemon()
        let app = try daemon.connect()
        let names = ["c", "a", "b"]
        for (index, name) in names.enumerated() {
            #expect(try app.request(#"{"op":"configure","container":"\#(name)","owned":true,"id":\#(index)}"#)?["type"] as? String == "ok")
        }
        let follower = try daemon.connect()
        let watcher = try daemon.connect()
        for name in names {
            #expect(try follower.request(#"{"op":"subscribe","container":"\#(name)"}"#)?["type"] as? String == "state")
            #expect(try follower.request(#"{"op":"observe","container":"\#(name)","of":"phase","id":"\#(name)"}"#)?["type"] as? String == "observation")
        }
        #expect(try watcher.request(#"{"op":"subscribe","container":"a"}"#)?["type"] as? String == "state")
        _ = try follower.drain()
        _ = try watcher.drain()

        try app.channel.close().wait()
        daemon.loop.run()

        var writes: [String] = []
        while let buffer = try follower.channel.readOutbound(as: ByteBuffer.self) {
            writes.append(String(buffer: buffer))
        }
        #expect(writes == [names.map { #"{"type":"removed","container":"\#($0)"}"# + "\n" }.joined()])
        #expect(try watcher.drain().map { $0["container"] as? String } == ["a"])
        // Everything the follower followed went with the containers.
        #expect(try follower.request(#"{"op":"unobserve","id":"a"}"#)?["code"] as? String == "invalid_value")
        #expect(try follower.request(#"{"op":"ping"}"#)?["type"] as? String == "pong")
    }

    /// Loading more content while a fling runs (docs/design.md §19, "Geometry changes never
    /// break motion"): the fling goes on along its own curve to its own end, past where the old
    /// content ended, and does not bounce. The `configure` comes 100 ms into the fling on the
    /// daemon's own clock, long before the fling would reach the old end (~0.8 s): no machine
    /// is too slow to send it in time, as a real socket's test could be.
    @Test func aFlingRunsOnWhenItsContentGrowsUnderIt() throws {
        let daemon = try EmbeddedDaemon()
        let app = try daemon.connect()
        let list = #"{"op":"configure","container":"list","containerSize":{"width":400,"height":600},"contentSize":{"width":400,"height":1600},"id":1}"#
        #expect(try app.request(list)?["type"] as? String == "ok")
        #expect(try app.request(#"{"op":"focus","container":"list","id":2}"#)?["type"] as? String == "ok")
        #expect(try app.request(#"{"op":"subscribe","container":"list","id":3}"#)?["type"] as? String == "state")
        // 20 × 10 px every 5 ms: released at y = 200 with ~2000 px/s, headed for ~1200, past
        // the old end (resting range [0, 1000]).
        for _ in 0..<20 {
            daemon.input(.finger(AxisValues(y: 10)), device: 2)
            daemon.advance(0.005)
        }
        daemon.input(.finger(AxisValues(x: 0, y: 0)), device: 2)
        let fling = try #require(try app.drain().last { $0["type"] as? String == "state" })
        #expect(fling["phase"] as? String == "decelerating")
        daemon.advance(0.1)
        var states = try app.drain().filter { $0["type"] as? String == "state" }
        #expect(states.allSatisfy { y($0) < 1000 })
        let grow = #"{"op":"configure","container":"list","contentSize":{"width":400,"height":5000},"id":4}"#
        try app.send(grow)
        daemon.advance(10)
        let after = try app.drain()
        #expect(after.contains { $0["type"] as? String == "ok" && $0["id"] as? Int == 4 })
        states += after.filter { $0["type"] as? String == "state" }

        // Its end point from any point of its curve: y∞ = y(τ) − v(τ)/k, k = 1000·ln 0.998.
        let end = y(fling) - vy(fling) / (1000 * log(0.998))
        #expect(end > 1100, "the fling was to end past the old bottom: \(end)")
        // Unbroken: decelerating until it comes to rest, never a step back (no bounce).
        let moving = states.prefix { $0["phase"] as? String == "decelerating" }
        let rest = try #require(states.dropFirst(moving.count).first)
        #expect(rest["phase"] as? String == "idle")
        #expect(abs(y(rest) - end) < 1e-6, "came to rest at \(y(rest)), its curve's end is \(end)")
        #expect(moving.contains { y($0) > 1000 })
        #expect(zip(moving, moving.dropFirst()).allSatisfy { y($0) <= y($1) })
        #expect(states.dropFirst(moving.count).allSatisfy { y($0) == y(rest) })
    }

    func y(_ state: [String: Any]) -> Double { (state["contentOffset"] as! [String: Any])["y"] as! Double }
    func vy(_ state: [String: Any]) -> Double { (state["velocity"] as! [String: Any])["y"] as! Double }
}

/// A recording kept in memory.
final class MemoryRecording: RecordingSink {
    var path: String { "(memory)" }
    private(set) var text = ""
    func write(_ bytes: [UInt8]) -> String? {
        text += String(decoding: bytes, as: UTF8.self)
        return nil
    }
}
