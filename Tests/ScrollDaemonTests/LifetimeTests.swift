import NIOCore
import NIOEmbedded
import ScrollModel
import Testing

/// DESIGN §19 on virtual time: what a closed connection leaves behind is undone, also when the
/// connection breaks in the middle of the daemon handing out a frame.
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
}
