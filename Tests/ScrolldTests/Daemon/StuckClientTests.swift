import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("scrolld run: a client that stops reading while nothing moves")
struct StuckClientTests {
    /// The stuck-client drop runs on a timer armed when the socket fills, not on the next
    /// publish: a client whose replies fill its socket is dropped after the timeout even though
    /// no state is published meanwhile (no input, nothing moves), and others are still served.
    @Test func aClientWhoseSocketStaysFullIsDroppedWithoutAnyPublish() throws {
        let daemon = try DaemonProcess(arguments: ["--stuck-client-timeout", "2"])
        let flooder = try LineClient(path: daemon.socketPath)
        // Pings, never reading the pongs, until the daemon stops reading (its write buffer is
        // full, so it turned reading off) and the socket takes no more.
        let flags = fcntl(flooder.fd, F_GETFL)
        _ = fcntl(flooder.fd, F_SETFL, flags | O_NONBLOCK)
        let ping = Array(#"{"op":"get","container":"main"}"#.utf8) + [UInt8(ascii: "\n")]
        let burst = Array(Array(repeating: ping, count: 256).joined())
        // Stopped: what it sent waits unread while the daemon sleeps (ProcessProbe.stoppedReading),
        // or, on a machine slow to look, the daemon has already dropped it.
        let dropped = "that has not read for more than 2.0 s"
        let stopped = waitUntil(timeout: 30) {
            while burst.withUnsafeBytes({ send(flooder.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) > 0 {}
            return daemon.probe.stoppedReading(flooder.fd) || daemon.stderr.contains(dropped)
        }
        #expect(stopped, "the daemon kept reading a client that never reads its replies")
        #expect(daemon.waitForLog(dropped, timeout: 30), "\(daemon.stderr)")
        #expect(flooder.isClosed(timeout: 30))
        let other = try LineClient(path: daemon.socketPath)
        _ = other.readJSON()
        #expect(other.request(["op": "ping"], id: 1)?["type"] as? String == "pong")
        #expect(daemon.stop() == 0)
    }

    /// Replies are never coalesced, and some come of what others do: a client waiting for a
    /// thousand names gets a state each time another creates them and a `removed` each time it
    /// removes them. One that reads none of them is dropped once NIO holds more than
    /// `Client.backlogLimit` (1 MiB) of its replies, long before the stuck-client timeout (here
    /// ten minutes), and the one that churns is still served.
    @Test func aClientThatReadsNoneOfItsRepliesIsDroppedPastTheBacklogLimit() throws {
        let daemon = try DaemonProcess(arguments: ["--stuck-client-timeout", "600"])
        let waiter = try LineClient(path: daemon.socketPath)
        let names = (0..<1000).map { "w\($0)" }
        _ = waiter.readJSON()
        for name in names {
            #expect(waiter.request(["op": "subscribe", "container": name, "wait": true], id: 1)?["type"] as? String == "waiting")
        }
        // From here on it reads nothing.
        let churner = try LineClient(path: daemon.socketPath)
        _ = churner.readJSON()
        let dropped = "whose unread replies passed 1048576 bytes"
        var rounds = 0
        _ = waitUntil(timeout: 120) {
            rounds += 1
            // One at a time: the churner reads its own replies.
            for name in names {
                guard churner.request(["op": "configure", "container": name, "containerSize": ["width": 100, "height": 100]], id: 1)?["type"] as? String == "ok",
                    churner.request(["op": "remove", "container": name], id: 2)?["type"] as? String == "ok"
                else { return true }
            }
            return daemon.stderr.contains(dropped)
        }
        #expect(daemon.waitForLog(dropped, timeout: 30), "\(daemon.stderr)")
        #expect(rounds < 20)
        #expect(waiter.isClosed(timeout: 30))
        #expect(churner.request(["op": "ping"], id: 5001)?["type"] as? String == "pong")
        #expect(daemon.stop() == 0)
    }
}
