import Foundation
import NIOCore
import NIOEmbedded
@testable import ScrollDaemon
import ScrollModel
import Testing

/// docs/design.md §20 on the daemon's side, on virtual time: a bottom-anchored log follows its
/// end through a bounce, and subscriptions and observations wait for their containers.
@Suite("Following and waiting on an embedded loop")
struct FollowingAndWaitingTests {
    static let log = #"{"op":"configure","container":"log","containerSize":{"width":420,"height":720},"rows":{"count":60,"height":24},"anchor":"bottom","owned":true,"id":1}"#

    func states(_ lines: [[String: Any]], of container: String = "log") -> [[String: Any]] {
        lines.filter { $0["type"] as? String == "state" && $0["container"] as? String == container }
    }

    func y(_ state: [String: Any]) -> Double { (state["contentOffset"] as! [String: Any])["y"] as! Double }
    func vy(_ state: [String: Any]) -> Double { (state["velocity"] as! [String: Any])["y"] as! Double }

    /// The transcript of a user trial: the log flung past its end, a line arriving while it
    /// bounces back, another at rest.
    @Test func aLogFlungToItsEndKeepsFollowingLinesArrivingWhileItBouncesBack() throws {
        let daemon = try EmbeddedDaemon()
        let app = try daemon.connect()
        #expect(try app.request(Self.log)?["type"] as? String == "ok")
        #expect(try app.request(#"{"op":"focus","container":"log","id":2}"#)?["type"] as? String == "ok")
        let first = try #require(try app.request(#"{"op":"subscribe","container":"log","id":3}"#))
        #expect(y(first) == 720)
        try app.send(#"{"op":"scrollTo","container":"log","y":500,"animation":"none","id":4}"#)
        #expect(states(try app.drain()).map(y) == [500])
        // A two-finger fling down the log: 200 px back in its last 100 ms, 2000 px/s.
        daemon.input(.finger(AxisValues(y: -200)), device: 2)
        daemon.advance(0.15)
        daemon.input(.finger(AxisValues(y: 100)), device: 2)
        daemon.advance(0.1)
        daemon.input(.finger(AxisValues(y: 100)), device: 2)
        daemon.input(.finger(AxisValues(x: 0, y: 0)), device: 2)
        _ = try app.drain()
        // Frame by frame until it heads back from beyond its end.
        var bouncing: [String: Any]?
        for _ in 0..<200 where bouncing == nil {
            daemon.advance(0.01)
            bouncing = states(try app.drain()).last { y($0) > 740 && vy($0) < 0 }
        }
        let back = try #require(bouncing)
        #expect(back["phase"] as? String == "decelerating")
        #expect(try app.request(#"{"op":"configure","container":"log","rows":{"insert":{"at":60,"count":1}},"id":5}"#) != nil)
        daemon.advance(5)
        let rest = try #require(states(try app.drain()).last)
        #expect(y(rest) == 744)
        #expect(rest["phase"] as? String == "idle")
        #expect((rest["contentSize"] as? [String: Any])?["height"] as? Double == 1464)
        try app.send(#"{"op":"configure","container":"log","rows":{"insert":{"at":61,"count":1}},"id":6}"#)
        let next = try #require(states(try app.drain()).last)
        #expect(y(next) == 768)
    }

    @Test func aWaitingSubscriptionStartsWhenItsContainerIsCreatedAndWaitsAgainAfterRemoved() throws {
        let daemon = try EmbeddedDaemon()
        let viewer = try daemon.connect()
        let waiting = try #require(try viewer.request(#"{"op":"subscribe","container":"log","wait":true,"id":1}"#))
        #expect(waiting["type"] as? String == "waiting")
        #expect(waiting["container"] as? String == "log")
        #expect(waiting["id"] as? Int == 1)
        #expect(daemon.core.waitingCount == 1)
        // Without wait, still refused.
        #expect(try viewer.request(#"{"op":"subscribe","container":"other","id":2}"#)?["code"] as? String == "unknown_container")

        let app = try daemon.connect()
        #expect(try app.request(Self.log)?["type"] as? String == "ok")
        let started = try viewer.drain()
        #expect(started.count == 1)
        #expect(started.first?["type"] as? String == "state")
        #expect(started.first?["id"] == nil)
        #expect(started.first.map(y) == 720)
        #expect(daemon.core.waitingCount == 0)
        // An ordinary subscription now: every state.
        #expect(try app.request(#"{"op":"scrollTo","container":"log","y":100,"animation":"none","id":2}"#)?["type"] as? String == "ok")
        #expect(states(try viewer.drain()).map(y) == [100])

        // Its owner goes: `removed`, and it waits again; a new one starts it again.
        try app.channel.close().wait()
        daemon.loop.run()
        let removed = try viewer.drain()
        #expect(removed.map { $0["type"] as? String } == ["removed"])
        #expect(daemon.core.waitingCount == 1)
        let again = try daemon.connect()
        #expect(try again.request(Self.log)?["type"] as? String == "ok")
        #expect(states(try viewer.drain()).map(y) == [720])

        // Without wait, a removed container's subscription ends.
        let plain = try daemon.connect()
        #expect(try plain.request(#"{"op":"subscribe","container":"log","id":1}"#)?["type"] as? String == "state")
        #expect(try again.request(#"{"op":"remove","container":"log","id":2}"#)?["type"] as? String == "ok")
        #expect(try plain.drain().map { $0["type"] as? String } == ["removed"])
        #expect(try viewer.drain().map { $0["type"] as? String } == ["removed"])
        #expect(daemon.core.waitingCount == 1)
        #expect(try again.request(#"{"op":"configure","container":"log","id":3}"#)?["type"] as? String == "ok")
        #expect(try plain.drain().isEmpty)
        #expect(states(try viewer.drain()).count == 1)
    }

    @Test func aWaitingObservationStartsWithOldNull() throws {
        let daemon = try EmbeddedDaemon()
        let viewer = try daemon.connect()
        let waiting = try viewer.request(#"{"op":"observe","container":"log","of":"contentOffset.y","wait":true,"id":"o"}"#)
        #expect(waiting?["type"] as? String == "waiting")
        #expect(waiting?["id"] as? String == "o")
        // Its id is taken while it waits.
        #expect(try viewer.request(#"{"op":"observe","container":"main","of":"phase","id":"o"}"#)?["code"] as? String == "invalid_value")
        let app = try daemon.connect()
        #expect(try app.request(Self.log)?["type"] as? String == "ok")
        let first = try #require(try viewer.next())
        #expect(first["type"] as? String == "observation")
        #expect(first["id"] as? String == "o")
        #expect(first["old"] is NSNull)
        #expect(first["new"] as? Double == 720)
        try app.channel.close().wait()
        daemon.loop.run()
        #expect(try viewer.drain().map { $0["type"] as? String } == ["removed"])
        #expect(daemon.core.waitingCount == 1)
        // Unobserved while it waits: nothing starts.
        #expect(try viewer.request(#"{"op":"unobserve","id":"o"}"#)?["type"] as? String == "ok")
        #expect(daemon.core.waitingCount == 0)
        let again = try daemon.connect()
        #expect(try again.request(Self.log)?["type"] as? String == "ok")
        #expect(try viewer.drain().isEmpty)
    }

    @Test func waitingEndsWithUnsubscribeAndWithTheConnection() throws {
        let daemon = try EmbeddedDaemon()
        let viewer = try daemon.connect()
        #expect(try viewer.request(#"{"op":"subscribe","container":"a","wait":true,"id":1}"#)?["type"] as? String == "waiting")
        // Asked again, it replaces the first (one per name).
        #expect(try viewer.request(#"{"op":"subscribe","container":"a","wait":true,"rate":10,"id":2}"#)?["type"] as? String == "waiting")
        #expect(try viewer.request(#"{"op":"subscribe","container":"b","wait":true,"id":3}"#)?["type"] as? String == "waiting")
        #expect(daemon.core.waitingCount == 2)
        #expect(try viewer.request(#"{"op":"unsubscribe","container":"a","id":4}"#)?["type"] as? String == "ok")
        #expect(daemon.core.waitingCount == 1)
        let app = try daemon.connect()
        #expect(try app.request(#"{"op":"configure","container":"a","id":1}"#)?["type"] as? String == "ok")
        #expect(try viewer.drain().isEmpty)
        #expect(try viewer.request(#"{"op":"unsubscribe","id":5}"#)?["type"] as? String == "ok")
        #expect(daemon.core.waitingCount == 0)
        #expect(try viewer.request(#"{"op":"observe","container":"c","of":"phase","wait":true,"id":6}"#)?["type"] as? String == "waiting")
        #expect(try viewer.request(#"{"op":"subscribe","container":"c","wait":true,"id":7}"#)?["type"] as? String == "waiting")
        #expect(daemon.core.waitingCount == 2)
        try viewer.channel.close().wait()
        daemon.loop.run()
        #expect(daemon.core.waitingCount == 0)
    }

    /// docs/design.md "Limits": what one connection may have waiting is bounded.
    @Test func aConnectionMayHaveAtMostTheLimitWaiting() throws {
        let daemon = try EmbeddedDaemon()
        let viewer = try daemon.connect()
        for index in 0..<Limits.waiting {
            try viewer.send(#"{"op":"subscribe","container":"c\#(index)","wait":true}"#)
        }
        let replies = try viewer.drain()
        #expect(replies.count == Limits.waiting)
        #expect(replies.allSatisfy { $0["type"] as? String == "waiting" })
        let refused = try viewer.request(#"{"op":"observe","container":"more","of":"phase","wait":true,"id":"x"}"#)
        #expect(refused?["code"] as? String == "too_large")
        #expect((refused?["message"] as? String)?.contains("at most \(Limits.waiting)") == true)
        // The same name again replaces its own and is no more.
        #expect(try viewer.request(#"{"op":"subscribe","container":"c0","wait":true,"rate":5,"id":1}"#)?["type"] as? String == "waiting")
        #expect(daemon.core.waitingCount == Limits.waiting)
        // Another connection has its own allowance; the daemon still answers.
        let other = try daemon.connect()
        #expect(try other.request(#"{"op":"subscribe","container":"c0","wait":true,"id":1}"#)?["type"] as? String == "waiting")
        #expect(try other.request(#"{"op":"ping","id":2}"#)?["type"] as? String == "pong")
    }

    @Test func welcomeNamesFollow() throws {
        let daemon = try EmbeddedDaemon()
        let connection = try daemon.open()
        let welcome = try #require(try connection.next())
        #expect((welcome["features"] as? [String])?.contains("follow") == true)
    }

    /// A hostile round's crash: a connection waited twice for one container, and its socket was
    /// reset. When the container came, starting the first waiter wrote to it, the write failed
    /// and closed the connection right there, and the second waiter was still started, for a
    /// connection the daemon had let go of; the next look at that observation (the container's
    /// removal) read a freed client and the daemon aborted. Waiters of a closed connection now
    /// start nothing, and nothing of it is left.
    @Test(arguments: [
        [#"{"op":"observe","container":"log","of":"phase","wait":true,"id":"o0"}"#, #"{"op":"observe","container":"log","of":"phase","wait":true,"id":"o1"}"#],
        [#"{"op":"subscribe","container":"log","wait":true}"#, #"{"op":"observe","container":"log","of":"phase","wait":true,"id":"o1"}"#],
        [#"{"op":"observe","container":"log","of":"phase","wait":true,"id":"o0"}"#, #"{"op":"subscribe","container":"log","wait":true}"#],
    ])
    func aConnectionThatBreaksWhileItsWaitersStartHasNoneStarted(_ waits: [String]) throws {
        let daemon = try EmbeddedDaemon()
        let failing = FailingWrites()
        let viewer = try daemon.connect(failing: failing)
        for line in waits {
            #expect(try viewer.request(line)?["type"] as? String == "waiting")
        }
        let bystander = try daemon.connect()
        #expect(try bystander.request(#"{"op":"observe","container":"log","of":"phase","wait":true,"id":"b"}"#)?["type"] as? String == "waiting")
        #expect(daemon.core.waitingCount == 3)

        failing.armed = true
        let app = try daemon.connect()
        #expect(try app.request(Self.log)?["type"] as? String == "ok")
        #expect(!viewer.channel.isActive)
        #expect(daemon.core.waitingCount == 0)
        // The bystander's observation started; it is the only one.
        #expect(try bystander.next()?["type"] as? String == "observation")
        #expect(daemon.core.publisher.observationCount == 1)
        #expect(daemon.core.publisher.subscriptionCount == 0)

        #expect(try app.request(#"{"op":"scrollTo","container":"log","y":100,"id":2}"#)?["type"] as? String == "ok")
        daemon.advance(1)
        #expect(try app.request(#"{"op":"remove","container":"log","id":3}"#)?["type"] as? String == "ok")
        #expect(try bystander.drain().last?["type"] as? String == "removed")
        #expect(try bystander.request(#"{"op":"ping"}"#)?["type"] as? String == "pong")
    }
}
