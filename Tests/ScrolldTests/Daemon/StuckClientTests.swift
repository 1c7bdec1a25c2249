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
}
