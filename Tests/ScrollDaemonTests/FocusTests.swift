import Foundation
import NIOCore
import NIOEmbedded
import ScrollConfig
import ScrollDaemon
import ScrollModel
import Testing

/// docs/design.md §14 and §19 on the daemon's side: the focus is the daemon's (last wins across
/// clients), shown in `welcome` and `devices`, cleared with its container, undone when the
/// connection that set it closes; input follows it.
@Suite struct FocusTests {
    /// A vertical list with two horizontal carousels in it; wheels jump.
    static let configuration = """
        [physics]
        wheel_animation = "none"

        [containers.list]
        contentSize = "800x3000"

        [containers.a]
        parent = "list"
        axes = "horizontal"
        containerSize = "800x200"
        contentSize = "2400x200"

        [containers.b]
        parent = "list"
        axes = "horizontal"
        containerSize = "800x200"
        contentSize = "2400x200"
        """

    static func daemon() throws -> EmbeddedDaemon {
        try EmbeddedDaemon(configuration: Configuration.parse(configuration, file: "nested.toml"))
    }

    /// `"focus"` of a fresh connection's welcome: NSNull for null.
    static func welcomeFocus(_ daemon: EmbeddedDaemon) throws -> Any? {
        let connection = try daemon.open()
        let welcome = try #require(try connection.next())
        #expect((welcome["features"] as? [String])?.contains("routing") == true)
        _ = try connection.channel.close().wait()
        return welcome["focus"]
    }

    static func devicesFocus(_ client: Connection) throws -> Any? {
        let reply = try #require(try client.request(#"{"op":"devices","id":1}"#))
        #expect(reply["type"] as? String == "devices")
        return reply["focus"]
    }

    @Test func welcomeAndDevicesCarryTheFocus() throws {
        let daemon = try Self.daemon()
        #expect(try Self.welcomeFocus(daemon) is NSNull)
        let client = try daemon.connect()
        #expect(try Self.devicesFocus(client) is NSNull)
        #expect(try client.request(#"{"op":"focus","container":"a","id":2}"#)?["type"] as? String == "ok")
        #expect(try Self.welcomeFocus(daemon) as? String == "a")
        #expect(try Self.devicesFocus(client) as? String == "a")
        #expect(try client.request(#"{"op":"focus","container":null,"id":3}"#)?["type"] as? String == "ok")
        #expect(try Self.devicesFocus(client) is NSNull)
    }

    @Test func theLastFocusWinsAndAClosingConnectionUndoesOnlyItsOwn() throws {
        let daemon = try Self.daemon()
        let first = try daemon.connect()
        let second = try daemon.connect()
        let watcher = try daemon.connect()
        #expect(try first.request(#"{"op":"focus","container":"a"}"#)?["type"] as? String == "ok")
        #expect(try second.request(#"{"op":"focus","container":"b"}"#)?["type"] as? String == "ok")
        #expect(try Self.devicesFocus(watcher) as? String == "b")
        // The first connection's focus is no longer in force: its closing changes nothing.
        _ = try first.channel.close().wait()
        #expect(try Self.devicesFocus(watcher) as? String == "b")
        _ = try second.channel.close().wait()
        #expect(try Self.devicesFocus(watcher) is NSNull)
    }

    @Test func theFocusClearsWhenItsContainerIsRemoved() throws {
        let daemon = try Self.daemon()
        let client = try daemon.connect()
        let created = try client.request(#"{"op":"configure","container":"c","parent":"list","axes":"horizontal","contentSize":{"width":2400,"height":200}}"#)
        #expect(created?["type"] as? String == "ok")
        #expect(try client.request(#"{"op":"focus","container":"c"}"#)?["type"] as? String == "ok")
        #expect(try Self.devicesFocus(client) as? String == "c")
        #expect(try client.request(#"{"op":"remove","container":"c"}"#)?["type"] as? String == "ok")
        #expect(try Self.devicesFocus(client) is NSNull)
    }

    @Test func badFocusRequestsAreRefusedAndChangeNothing() throws {
        let daemon = try Self.daemon()
        let client = try daemon.connect()
        let unknown = try #require(try client.request(#"{"op":"focus","container":"nope","id":4}"#))
        #expect(unknown["code"] as? String == "unknown_container")
        #expect(unknown["id"] as? Int == 4)
        let missing = try #require(try client.request(#"{"op":"focus"}"#))
        #expect(missing["code"] as? String == "bad_request")
        #expect((missing["message"] as? String)?.contains("container") == true)
        let cycle = try #require(try client.request(#"{"op":"configure","container":"list","parent":"a"}"#))
        #expect(cycle["code"] as? String == "invalid_value")
        #expect((cycle["message"] as? String)?.contains("containers.list.parent") == true)
        let orphan = try #require(try client.request(#"{"op":"configure","container":"x","parent":"nowhere"}"#))
        #expect(orphan["code"] as? String == "invalid_value")
        #expect((orphan["message"] as? String)?.contains("containers.x.parent") == true)
        let behaviour = try #require(try client.request(#"{"op":"configure","container":"a","overscroll":"bounce"}"#))
        #expect(behaviour["code"] as? String == "invalid_value")
        #expect((behaviour["message"] as? String)?.contains("containers.a.overscroll") == true)
        #expect(try Self.devicesFocus(client) is NSNull)
        #expect(try client.request(#"{"op":"ping"}"#)?["type"] as? String == "pong")
    }

    @Test func inputFollowsTheFocus() throws {
        let daemon = try Self.daemon()
        let client = try daemon.connect()
        for name in ["list", "a", "b"] {
            #expect(try client.request(#"{"op":"subscribe","container":"\#(name)"}"#)?["type"] as? String == "state")
        }
        // No focus: only the list (no parent) hears input.
        daemon.input(.wheel(v120: AxisValues(x: 120, y: 120), degrees: nil))
        var states = try client.drain()
        #expect(states.map { $0["container"] as? String } == ["list"])
        #expect(try client.request(#"{"op":"focus","container":"a"}"#)?["type"] as? String == "ok")
        daemon.advance(1)
        _ = try client.drain()
        daemon.input(.wheel(v120: AxisValues(x: 120, y: 120), degrees: nil))
        states = try client.drain()
        #expect(states.map { $0["container"] as? String } == ["list", "a"])
        let a = try #require(states.last)
        let x = try #require((a["contentOffset"] as? [String: Any])?["x"] as? Double)
        #expect(abs(x - pow(800, 2.0 / 3.0)) < 1e-9)
    }
}
