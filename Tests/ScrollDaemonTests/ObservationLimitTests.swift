@testable import ScrollDaemon
import ScrollModel
import Testing

/// docs/design.md "Limits": the observations one connection may have are bounded, waiting ones
/// included, and a closed connection's observations go at once however many it had.
@Suite("Observations per connection")
struct ObservationLimitTests {
    @Test func aConnectionMayHaveAtMostTheLimitOfObservations() throws {
        let daemon = try EmbeddedDaemon()
        let viewer = try daemon.connect()
        for index in 0..<(Limits.observations - 1) {
            try viewer.send(#"{"op":"observe","container":"main","of":"phase","id":\#(index)}"#)
        }
        try viewer.send(#"{"op":"observe","container":"later","of":"phase","wait":true,"id":"w"}"#)
        let replies = try viewer.drain()
        #expect(replies.filter { $0["type"] as? String == "observation" }.count == Limits.observations - 1)
        #expect(replies.last?["type"] as? String == "waiting")

        let refused = try viewer.request(#"{"op":"observe","container":"main","of":"contentOffset.y","id":"x"}"#)
        #expect(refused?["code"] as? String == "too_large")
        #expect(refused?["message"] as? String == "too many observations on this connection (at most \(Limits.observations), waiting ones included)")
        #expect(try viewer.request(#"{"op":"observe","container":"elsewhere","of":"phase","wait":true,"id":"y"}"#)?["code"] as? String == "too_large")

        // One ended makes room for one more.
        #expect(try viewer.request(#"{"op":"unobserve","id":0}"#)?["type"] as? String == "ok")
        #expect(try viewer.request(#"{"op":"observe","container":"main","of":"contentOffset.y","id":"x"}"#)?["type"] as? String == "observation")
        // Another connection has its own allowance.
        let other = try daemon.connect()
        #expect(try other.request(#"{"op":"observe","container":"main","of":"phase","id":1}"#)?["type"] as? String == "observation")
    }

    @Test func aClosedConnectionsObservationsAllGo() throws {
        let daemon = try EmbeddedDaemon()
        let viewer = try daemon.connect()
        for index in 0..<Limits.observations {
            try viewer.send(#"{"op":"observe","container":"main","of":"phase","id":\#(index)}"#)
        }
        _ = try viewer.drain()
        let bystander = try daemon.connect()
        #expect(try bystander.request(#"{"op":"observe","container":"main","of":"phase","id":1}"#)?["type"] as? String == "observation")
        #expect(daemon.core.record(named: "main")?.observers.count == Limits.observations + 1)
        try viewer.channel.close().wait()
        #expect(daemon.core.record(named: "main")?.observers.count == 1)
        #expect(try bystander.request(#"{"op":"ping","id":2}"#)?["type"] as? String == "pong")
    }
}
