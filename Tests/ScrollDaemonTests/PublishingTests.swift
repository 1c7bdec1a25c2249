import Foundation
import NIOCore
import NIOEmbedded
import ScrollConfig
import ScrollDaemon
import ScrollModel
import Testing

/// Publishing, deadlines and requests of the daemon's logic, on virtual time.
@Suite struct PublishingTests {
    @Test func welcomeNamesTheServerTheContainersAndTheFeatures() throws {
        let daemon = try EmbeddedDaemon()
        let welcome = try #require(try daemon.open().next())
        #expect(welcome["server"] as? String == "scrolld test")
        #expect(welcome["containers"] as? [String] == ["main"])
        #expect(welcome["features"] as? [String] == ["positions", "observe", "routing", "record-requests", "session", "restore", "follow", "touch", "appbars", "gestures", "desktop", "web"])
        #expect((welcome["instance"] as? String)?.count == 32)
    }

    @Test func aSubscriberGetsTheStateAtOnceThenEveryPublishedStateInOrder() throws {
        let daemon = try EmbeddedDaemon()
        let client = try daemon.connect()
        let first = try #require(try client.request(#"{"op":"subscribe","container":"main","id":1}"#))
        #expect(first["type"] as? String == "state")
        #expect(first["id"] as? Double == 1)
        #expect(first["seq"] as? Double == 0)
        daemon.input(.deviceAdded(name: "mouse", capabilities: [.wheel]))
        daemon.input(.wheel(v120: AxisValues(y: 120), degrees: nil))
        let states = try client.drain()
        #expect(states.map { $0["seq"] as? Double } == [1])
        #expect(states.first?["phase"] as? String == "interacting")
        // The wheel spring runs on frames at 120 Hz from the event: each tick publishes one state.
        daemon.advance(1.0 / 120)
        let frame = try client.drain()
        #expect(frame.map { $0["seq"] as? Double } == [2])
        #expect(((frame.first?["contentOffset"] as? [String: Any])?["y"] as? Double ?? 0) > 0)
    }

    @Test func framesRunUntilRestAndThenNothingIsScheduled() throws {
        let daemon = try EmbeddedDaemon()
        let client = try daemon.connect()
        _ = try client.request(#"{"op":"subscribe","container":"main"}"#)
        #expect(try client.request(#"{"op":"scrollTo","container":"main","y":1000}"#)?["type"] as? String == "state")
        #expect(try client.next()?["type"] as? String == "ok")
        daemon.advance(5)
        var states = try client.drain()
        #expect(states.count > 30)
        // The last state is the scroll indicator's hide, 500 ms after the rest (docs/design.md
        // §22), by the one-shot timer: the rest of them are the frames.
        let hide = states.removeLast()
        let indicator = (hide["indicators"] as? [String: Any])?["y"] as? [String: Any]
        #expect(indicator?["visible"] as? Bool == false)
        #expect(hide["t"] as? Double == (states.last?["t"] as? Double).map { $0 + 500_000 })
        #expect(states.last?["phase"] as? String == "idle")
        #expect((states.last?["contentOffset"] as? [String: Any])?["y"] as? Double == 1000)
        // Frames on the grid t_start + round(k × 10⁶ / 120) µs from the request (at virtual time
        // 0), exactly, each with the next seq (docs/design.md §6).
        let times = states.compactMap { $0["t"] as? Double }
        let seqs = states.compactMap { $0["seq"] as? Double }
        let expectedSeqs: [Double] = (0..<seqs.count).map { Double($0) + seqs[0] }
        let grid: [Double] = (1...times.count).map { (Double($0) * 1e6 / 120).rounded() }
        #expect(seqs == expectedSeqs)
        #expect(times == grid)
        // At rest the loop has nothing to do: an hour later, not one more state.
        daemon.advance(3600)
        #expect(try client.drain().isEmpty)
    }

    @Test func aRateLimitedSubscriberGetsAtMostItsRateAndAlwaysTheLatest() throws {
        let daemon = try EmbeddedDaemon()
        let client = try daemon.connect()
        _ = try client.request(#"{"op":"subscribe","container":"main","rate":10}"#)
        daemon.input(.deviceAdded(name: "pad", capabilities: [.finger]))
        // A one-second drag at 1 kHz: 1000 states published, 10 per second allowed.
        var received: [(time: Timestamp, state: [String: Any])] = []
        for _ in 0..<1000 {
            daemon.input(.finger(AxisValues(y: 2)))
            daemon.advance(0.001)
            for state in try client.drain() { received.append((daemon.now, state)) }
        }
        daemon.input(.finger(AxisValues(y: 0)))
        daemon.advance(10)
        for state in try client.drain() { received.append((daemon.now, state)) }
        let during = received.filter { $0.time <= daemon.now - 5_000_000 }
        // The reply to subscribe (at 0) is its first state: the next comes 100 ms after it, not
        // with the drag's first step, then one every 100 ms up to and including the drag's last
        // step at 1 s: 10, on virtual time exactly.
        #expect(during.map(\.time) == (1...10).map { Timestamp($0) * 100_000 }, "\(during.map(\.time))")
        // Never two sends closer than the interval (virtual time, observed after each 1 ms step:
        // a send made inside a step is seen at its end, so spacing shows to within that step).
        for (a, b) in zip(during, during.dropFirst()) { #expect(b.time - a.time >= 100_000 - 1_000) }
        // The last one received is the latest published: at rest, where the fling ended.
        let get = try #require(try client.request(#"{"op":"get","container":"main"}"#))
        #expect(received.last?.state["seq"] as? Double == get["seq"] as? Double)
    }

    @Test func aFullSocketWaitsAndThenGetsOnlyTheLatestState() throws {
        let daemon = try EmbeddedDaemon()
        let client = try daemon.connect()
        _ = try client.request(#"{"op":"subscribe","container":"main"}"#)
        client.channel.isWritable = false
        client.channel.pipeline.fireChannelWritabilityChanged()
        #expect(try client.request(#"{"op":"scrollTo","container":"main","y":500,"animation":"none"}"#)?["type"] as? String == "ok")
        daemon.input(.deviceAdded(name: "mouse", capabilities: [.wheel]))
        for _ in 0..<5 { daemon.input(.wheel(v120: AxisValues(y: 120), degrees: nil)) }
        #expect(try client.drain().isEmpty, "nothing is queued for a full socket")
        let latest = try #require(try EmbeddedDaemon.currentSeq(daemon, client))
        client.channel.isWritable = true
        client.channel.pipeline.fireChannelWritabilityChanged()
        let sent = try client.drain()
        #expect(sent.count == 1)
        #expect(sent.first?["seq"] as? Double == latest)
    }

    @Test func aClientThatStopsReadingIsDroppedAfterTheLimit() throws {
        let daemon = try EmbeddedDaemon(stuckLimit: .seconds(30))
        let client = try daemon.connect()
        _ = try client.request(#"{"op":"subscribe","container":"main"}"#)
        client.channel.isWritable = false
        client.channel.pipeline.fireChannelWritabilityChanged()
        daemon.advance(29.9)
        #expect(client.channel.isActive)
        daemon.advance(0.2)
        #expect(!client.channel.isActive)
        #expect(daemon.core.connections.clients.isEmpty)
    }

    @Test func badRequestsAreAnsweredAndTheConnectionStays() throws {
        let daemon = try EmbeddedDaemon()
        let client = try daemon.connect()
        let unknown = try #require(try client.request(#"{"op":"scrollTo","container":"nope","y":1,"id":"a"}"#))
        #expect(unknown["code"] as? String == "unknown_container")
        #expect(unknown["id"] as? String == "a")
        let invalid = try #require(try client.request(#"{"op":"configure","container":"side","rows":{"count":-1}}"#))
        #expect(invalid["code"] as? String == "invalid_value")
        #expect(try client.request(#"{"op":"ping","id":2}"#)?["type"] as? String == "pong")
    }

    /// JSON's null is a value no configuration key takes, however deep it lies in a setting;
    /// the error names the key that holds it, and nothing of the request applies.
    @Test func aNullInsideASettingIsRefusedWithItsKey() throws {
        let daemon = try EmbeddedDaemon()
        let client = try daemon.connect()
        for (request, key) in [
            (#"{"op":"configure","container":"side","physics":{"decelerationRate":null}}"#, "physics.deceleration_rate"),
            (#"{"op":"configure","container":"side","rows":{"count":3,"heights":[10,null,10]}}"#, "rows.heights"),
            (#"{"op":"configure","container":"side","axes":null}"#, "axes"),
        ] {
            let refused = try #require(try client.request(request))
            #expect(refused["code"] as? String == "invalid_value", "\(request)")
            #expect(refused["message"] as? String == "\(key): null is not a value here", "\(request)")
        }
        #expect(try client.request(#"{"op":"get","container":"side"}"#)?["code"] as? String == "unknown_container")
    }

    @Test func configureCreatesAContainerThatOthersCanSubscribeTo() throws {
        let daemon = try EmbeddedDaemon()
        let a = try daemon.connect(), b = try daemon.connect()
        #expect(try a.request(#"{"op":"configure","container":"side","containerSize":{"width":300,"height":200}}"#)?["type"] as? String == "ok")
        let state = try #require(try b.request(#"{"op":"subscribe","container":"side"}"#))
        #expect(state["seq"] as? Double == 1)
        #expect((state["containerSize"] as? [String: Any])?["height"] as? Double == 200)
        #expect(try a.request(#"{"op":"scrollBy","container":"side","dy":50,"animation":"none"}"#)?["type"] as? String == "ok")
        let moved = try b.drain()
        #expect(moved.map { $0["seq"] as? Double } == [2])
    }
}

extension EmbeddedDaemon {
    /// The seq of the container's latest published state, asked on a connection of its own.
    static func currentSeq(_ daemon: EmbeddedDaemon, _ client: Connection) throws -> Double? {
        let other = try daemon.connect()
        return try other.request(#"{"op":"get","container":"main"}"#)?["seq"] as? Double
    }
}
