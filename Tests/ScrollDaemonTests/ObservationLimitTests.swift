@testable import ScrollDaemon
import ScrollModel
import Testing

/// docs/design.md "Limits": the observations of one connection and of one container are
/// bounded, waiting ones included, and a closed connection's go at once however many it had.
@Suite("Observation limits")
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

    /// An observation's id is kept as long as it lasts and written into each of its messages:
    /// at most `Limits.observationIDBytes` of JSON, waiting or not.
    @Test func anObservationIdIsAtMost255BytesOfJSON() throws {
        let daemon = try EmbeddedDaemon()
        let viewer = try daemon.connect()
        // A JSON string of 253 characters and its two quotes: 255 bytes.
        let longest = String(repeating: "i", count: 253)
        let tooLong = longest + "i"
        for request in [
            #"{"op":"observe","container":"main","of":"phase","id":"\#(tooLong)"}"#,
            #"{"op":"observe","container":"later","of":"phase","wait":true,"id":"\#(tooLong)"}"#,
        ] {
            let refused = try viewer.request(request)
            #expect(refused?["code"] as? String == "too_large")
            #expect(refused?["message"] as? String == "an observation's \"id\" is at most 255 bytes of JSON, got 256")
        }
        #expect(daemon.core.publisher.observationCount == 0)
        let accepted = try viewer.request(#"{"op":"observe","container":"main","of":"phase","id":"\#(longest)"}"#)
        #expect(accepted?["type"] as? String == "observation")
        #expect(accepted?["id"] as? String == longest)
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

    /// A container's observations over every connection are bounded too, waiting ones included;
    /// ten thousand waiting for one name all start when it is created, in the order they came.
    @Test func aContainerHasAtMostTheLimitOfObservations() throws {
        let daemon = try EmbeddedDaemon()
        let perConnection = Limits.observations
        var viewers: [Connection] = []
        for _ in 0..<(Limits.containerObservations / perConnection) {
            let viewer = try daemon.connect()
            for index in 0..<perConnection {
                try viewer.send(#"{"op":"observe","container":"later","of":"phase","wait":true,"id":\#(index)}"#)
            }
            #expect(try viewer.drain().count == perConnection)
            viewers.append(viewer)
        }
        let late = try daemon.connect()
        let refused = try late.request(#"{"op":"observe","container":"later","of":"phase","wait":true,"id":"x"}"#)
        #expect(refused?["code"] as? String == "too_large")
        #expect(refused?["message"] as? String == "too many observations of container \"later\" (at most \(Limits.containerObservations) over every connection, waiting ones included)")
        // Another container is not concerned.
        #expect(try late.request(#"{"op":"observe","container":"main","of":"phase","id":"x"}"#)?["type"] as? String == "observation")

        #expect(try late.request(#"{"op":"configure","container":"later","id":1}"#)?["type"] as? String == "ok")
        #expect(daemon.core.waitingCount == 0)
        for viewer in viewers {
            let started = try viewer.drain()
            #expect(started.map { $0["id"] as? Int } == Array(0..<perConnection))
            #expect(started.allSatisfy { $0["type"] as? String == "observation" })
        }
        #expect(daemon.core.record(named: "later")?.observers.count == Limits.containerObservations)
        #expect(try late.request(#"{"op":"observe","container":"later","of":"phase","id":"y"}"#)?["code"] as? String == "too_large")
        // One ended makes room for one more.
        #expect(try viewers[0].request(#"{"op":"unobserve","id":0}"#)?["type"] as? String == "ok")
        #expect(try late.request(#"{"op":"observe","container":"later","of":"phase","id":"y"}"#)?["type"] as? String == "observation")
    }

    /// The observations of every connection and container together are bounded, waiting ones
    /// included; the count follows every way one ends: unobserve, a closed connection, a removed
    /// container (whose observations with `wait` wait again and still count).
    @Test func theDaemonHasAtMostTheLimitOfObservationsInAll() throws {
        let daemon = try EmbeddedDaemon()
        let perConnection = Limits.observations
        let maker = try daemon.connect()
        #expect(try maker.request(#"{"op":"configure","container":"second","id":1}"#)?["type"] as? String == "ok")
        var viewers: [Connection] = []
        for number in 0..<(Limits.allObservations / perConnection) {
            let viewer = try daemon.connect()
            // Half on "main", half waiting for "later" (within the per-container limit).
            let (name, wait) = number % 2 == 0 ? ("main", "false") : ("later", "true")
            for index in 0..<perConnection {
                try viewer.send(#"{"op":"observe","container":"\#(name)","of":"phase","wait":\#(wait),"id":\#(index)}"#)
            }
            #expect(try viewer.drain().count == perConnection)
            viewers.append(viewer)
        }
        #expect(daemon.core.publisher.observationCount == Limits.allObservations)
        let late = try daemon.connect()
        let refused = try late.request(#"{"op":"observe","container":"second","of":"phase","id":"x"}"#)
        #expect(refused?["code"] as? String == "too_large")
        #expect(refused?["message"] as? String == "too many observations (at most \(Limits.allObservations) over every connection and container, waiting ones included)")

        // Ended by unobserve: room for one.
        #expect(try viewers[0].request(#"{"op":"unobserve","id":0}"#)?["type"] as? String == "ok")
        #expect(try late.request(#"{"op":"observe","container":"second","of":"phase","id":"x"}"#)?["type"] as? String == "observation")
        #expect(try late.request(#"{"op":"observe","container":"second","of":"phase","id":"y"}"#)?["code"] as? String == "too_large")
        // Ended by a close: a thousand of them.
        try viewers[0].channel.close().wait()
        #expect(daemon.core.publisher.observationCount == Limits.allObservations - perConnection + 1)
        // Waiting ones that start when their container is made are counted once.
        #expect(try late.request(#"{"op":"configure","container":"later","id":1}"#)?["type"] as? String == "ok")
        #expect(daemon.core.publisher.observationCount == Limits.allObservations - perConnection + 1)
        // Removed with `wait`: they wait again and still count; without, they go.
        #expect(try late.request(#"{"op":"remove","container":"later","id":2}"#)?["type"] as? String == "ok")
        #expect(daemon.core.publisher.observationCount == Limits.allObservations - perConnection + 1)
        #expect(try maker.request(#"{"op":"remove","container":"second","id":3}"#)?["type"] as? String == "ok")
        #expect(try late.drain().map { $0["type"] as? String } == ["removed"])
        #expect(daemon.core.publisher.observationCount == Limits.allObservations - perConnection)
        for viewer in viewers.dropFirst() { try viewer.channel.close().wait() }
        #expect(daemon.core.publisher.observationCount == 0)
        #expect(try late.request(#"{"op":"observe","container":"main","of":"phase","id":"z"}"#)?["type"] as? String == "observation")
    }

    /// `unsubscribe` without a container ends the connection's own subscriptions and nobody
    /// else's.
    @Test func unsubscribingFromEverythingEndsOnlyOnesOwn() throws {
        let daemon = try EmbeddedDaemon()
        let viewer = try daemon.connect(), other = try daemon.connect()
        for connection in [viewer, other] {
            #expect(try connection.request(#"{"op":"subscribe","container":"main","id":1}"#)?["type"] as? String == "state")
        }
        #expect(try viewer.request(#"{"op":"unsubscribe","id":2}"#)?["type"] as? String == "ok")
        #expect(daemon.core.record(named: "main")?.subscriptions.map(\.client.number) == [2])
        #expect(try other.request(#"{"op":"unsubscribe","id":2}"#)?["type"] as? String == "ok")
        #expect(daemon.core.record(named: "main")?.subscriptions.isEmpty == true)
    }
}

