@testable import ScrollDaemon
import ScrollModel
import Testing

/// docs/design.md "Limits": the subscriptions over every connection are bounded; one that ends
/// makes room, subscribing again to a container already subscribed to is no new one, and a
/// closed connection takes its subscriptions with it.
@Suite("Subscription limits")
struct SubscriptionLimitTests {
    @Test func theDaemonHasAtMostTheLimitOfSubscriptionsInAll() throws {
        let daemon = try EmbeddedDaemon()
        let containers = Limits.containers - 1  // and `main`
        let setup = try daemon.connect()
        for index in 0..<containers {
            try setup.send(#"{"op":"configure","container":"c\#(index)","containerSize":{"width":10,"height":10}}"#)
        }
        _ = try setup.drain()
        var subscribers: [Connection] = []
        for _ in 0..<(Limits.allSubscriptions / containers) {
            let subscriber = try daemon.connect()
            for index in 0..<containers {
                try subscriber.send(#"{"op":"subscribe","container":"c\#(index)"}"#)
            }
            _ = try subscriber.drain()
            subscribers.append(subscriber)
        }
        let last = try daemon.connect()
        for index in 0..<(Limits.allSubscriptions % containers) {
            try last.send(#"{"op":"subscribe","container":"c\#(index)"}"#)
        }
        _ = try last.drain()
        #expect(daemon.core.publisher.subscriptionCount == Limits.allSubscriptions)

        let refused = try last.request(#"{"op":"subscribe","container":"main","id":1}"#)
        #expect(refused?["code"] as? String == "too_large")
        #expect(refused?["message"] as? String == "too many subscriptions (at most \(Limits.allSubscriptions) over every connection and container)")
        // Again to one it has, with another rate: the same subscription, replaced.
        #expect(try last.request(#"{"op":"subscribe","container":"c0","rate":10,"id":2}"#)?["type"] as? String == "state")
        #expect(daemon.core.publisher.subscriptionCount == Limits.allSubscriptions)
        // One ended makes room for one more.
        #expect(try subscribers[0].request(#"{"op":"unsubscribe","container":"c1","id":3}"#)?["type"] as? String == "ok")
        #expect(try last.request(#"{"op":"subscribe","container":"main","id":4}"#)?["type"] as? String == "state")
        // A closed connection's all go.
        try subscribers[1].channel.close().wait()
        #expect(daemon.core.publisher.subscriptionCount == Limits.allSubscriptions - containers)
        // The count kept is the count there is; a removed container's go too.
        #expect(try setup.request(#"{"op":"remove","container":"c2","id":6}"#)?["type"] as? String == "ok")
        let held = daemon.core.publisher.containers.values.reduce(0) { $0 + $1.subscriptions.count }
        #expect(daemon.core.publisher.subscriptionCount == held)
        // Less the closed connection's 999 and c2's 100 subscribers (99 connections left of
        // the first hundred, and the last).
        #expect(held == Limits.allSubscriptions - containers - Limits.allSubscriptions / containers)
        #expect(try last.drain().first?["type"] as? String == "removed")
        #expect(try last.request(#"{"op":"ping","id":5}"#)?["type"] as? String == "pong")
    }
}
