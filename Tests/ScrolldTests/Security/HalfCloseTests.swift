import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/protocol.md: a client that shuts down its sending side (`shutdown(SHUT_WR)`, as `socat`
/// does at the end of its input) gets the replies to everything it sent, then the daemon
/// closes the connection.
@Suite("scrolld: a client that half-closes", .serialized)
struct HalfCloseTests {
    /// More replies than the socket holds while the client does not read: the rest wait in the
    /// daemon when it reads the end of the input. The client reads only once the daemon has
    /// taken every byte it sent (SIOCOUTQ is 0) and sleeps with nothing of its own to do, so the
    /// end of the input has been seen; a daemon that closed at it lost the replies it held.
    @Test func everyReplyComesBeforeTheClose() throws {
        let daemon = try DaemonProcess()
        let client = try LineClient(path: daemon.socketPath)
        #expect(client.readJSON()?["type"] as? String == "welcome")
        let count = 300
        client.send((1...count).map { #"{"op":"ping","id":\#($0)}"# }.joined(separator: "\n"))
        #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
        #expect(waitUntil(timeout: 60) { Self.unsent(client.fd) == 0 && daemon.probe.whatMayWakeIt(timers: false) == nil })
        var ids: [Int] = []
        while let line = client.readJSON(timeout: 60) {
            #expect(line["type"] as? String == "pong")
            if let id = line["id"] as? Int { ids.append(id) }
        }
        let everyReply = ids == Array(1...count)
        #expect(everyReply, "\(ids.count) replies of \(count), the last \(ids.last ?? 0)")
        // The daemon closed the connection, and serves on.
        #expect(client.isClosed())
        let other = try LineClient(path: daemon.socketPath)
        _ = other.readJSON()
        #expect(other.request(["op": "ping"], id: 1)?["type"] as? String == "pong")
        #expect(daemon.stop() == 0)
    }

    /// A reload is answered later, off the loop: what the client sent after it, and the end of
    /// its input, wait for it; every reply comes, in order, then the close.
    @Test func theEndOfTheInputWaitsForALaterAnswer() throws {
        let daemon = try DaemonProcess()
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        client.send(#"{"op":"reload","id":1}"# + "\n" + #"{"op":"ping","id":2}"#)
        #expect(shutdown(client.fd, Int32(SHUT_WR)) == 0)
        var lines: [[String: Any]] = []
        while let line = client.readJSON(timeout: 60) { lines.append(line) }
        #expect(lines.map { $0["type"] as? String } == ["reloaded", "pong"])
        #expect(lines.map { $0["id"] as? Int } == [1, 2])
        #expect(daemon.stop() == 0)
    }

    /// Bytes sent on `fd` that the peer has not read yet.
    static func unsent(_ fd: Int32) -> Int32 {
        var unread: Int32 = -1
        return ioctl(fd, UInt(TIOCOUTQ), &unread) == 0 ? unread : -1
    }
}
