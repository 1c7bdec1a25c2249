@testable import ScrollDaemon
import ScrollModel
import Testing

/// docs/design.md "Limits": a container's name is at most 255 bytes of UTF-8 (every state
/// carries it, every `welcome` lists it), whether a request would create the container or
/// wait for it; and what waits for a name is bounded over every connection.
@Suite("Container names and what waits for them")
struct ContainerNameTests {
    @Test func aNameIsAtMost255Bytes() throws {
        let daemon = try EmbeddedDaemon()
        let client = try daemon.connect()
        // 85 three-byte characters: 255 bytes.
        let longest = String(repeating: "€", count: 85)
        let tooLong = longest + "x"
        let message = "invalid \"container\": a container name is at most 255 bytes of UTF-8, got 256"
        for request in [
            #"{"op":"configure","container":"\#(tooLong)","containerSize":{"width":10,"height":10},"id":1}"#,
            #"{"op":"subscribe","container":"\#(tooLong)","wait":true,"id":2}"#,
            #"{"op":"observe","container":"\#(tooLong)","of":"phase","wait":true,"id":3}"#,
        ] {
            let refused = try client.request(request)
            #expect(refused?["code"] as? String == "invalid_value")
            #expect(refused?["message"] as? String == message)
        }
        let watcher = try daemon.connect()
        #expect(try watcher.request(#"{"op":"subscribe","container":"\#(longest)","wait":true,"id":4}"#)?["type"] as? String == "waiting")
        #expect(try client.request(#"{"op":"configure","container":"\#(longest)","containerSize":{"width":10,"height":10},"id":5}"#)?["type"] as? String == "ok")
        #expect(daemon.core.record(named: longest) != nil)
        #expect(daemon.core.record(named: tooLong) == nil)
    }

    /// At most `Limits.allWaiting` subscriptions and observations wait over every connection;
    /// one that ends makes room, and closed connections take theirs with them.
    @Test func theDaemonHasAtMostTheLimitOfWaitersInAll() throws {
        let daemon = try EmbeddedDaemon()
        var waiters: [Connection] = []
        for connection in 0..<(Limits.allWaiting / Limits.waiting) {
            let waiter = try daemon.connect()
            for index in 0..<Limits.waiting {
                let request = index % 10 != 0
                    ? #"{"op":"subscribe","container":"c\#(connection)-\#(index)","wait":true}"#
                    : #"{"op":"observe","container":"c\#(connection)-\#(index)","of":"phase","wait":true,"id":\#(index)}"#
                try waiter.send(request)
            }
            _ = try waiter.drain()
            waiters.append(waiter)
        }
        #expect(daemon.core.publisher.waiterCount == Limits.allWaiting)
        let late = try daemon.connect()
        let refused = try late.request(#"{"op":"subscribe","container":"later","wait":true,"id":1}"#)
        #expect(refused?["code"] as? String == "too_large")
        #expect(refused?["message"] as? String == "too many waiting subscriptions and observations (at most \(Limits.allWaiting) over every connection)")
        #expect(try waiters[0].request(#"{"op":"unsubscribe","container":"c0-1","id":2}"#)?["type"] as? String == "ok")
        #expect(try late.request(#"{"op":"subscribe","container":"later","wait":true,"id":3}"#)?["type"] as? String == "waiting")
        for waiter in waiters { try waiter.channel.close().wait() }
        #expect(daemon.core.publisher.waiterCount == 1)
        #expect(try late.request(#"{"op":"ping","id":4}"#)?["type"] as? String == "pong")
    }
}
