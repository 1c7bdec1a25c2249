import Foundation
import Testing

/// docs/design.md §14 on a live daemon: input from a real event log (`run --replay LOG --loop`), a
/// real socket client that moves the focus, subscribers that take every state — and the
/// recording of that session replaying line for line under the same routing (§17).
@Suite(.serialized) struct RoutingLiveTests {
    /// A vertical list with two horizontal carousels in it.
    static let configuration = """
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

    /// Sideways and up/down wheels, a sideways swipe and a diagonal one, over about a second.
    static let events = [
        #"{"format":"scrolld-events","version":1,"created":"2026-11-25T12:00:00Z","source":"routing live test"}"#,
        #"{"t":0,"dev":1,"type":"device_added","name":"Test Mouse","caps":["wheel"]}"#,
        #"{"t":0,"dev":2,"type":"device_added","name":"Test Touchpad","caps":["finger","hold"]}"#,
        #"{"t":100000,"dev":1,"type":"wheel","v120":{"x":120}}"#,
        #"{"t":300000,"dev":1,"type":"wheel","v120":{"y":120}}"#,
        #"{"t":600000,"dev":2,"type":"finger","delta":{"x":-12}}"#,
        #"{"t":610000,"dev":2,"type":"finger","delta":{"x":-12}}"#,
        #"{"t":620000,"dev":2,"type":"finger","delta":{"x":0}}"#,
        #"{"t":900000,"dev":2,"type":"finger","delta":{"x":8,"y":4}}"#,
        #"{"t":910000,"dev":2,"type":"finger","delta":{"x":8,"y":4}}"#,
        #"{"t":920000,"dev":2,"type":"finger","delta":{"x":8,"y":4}}"#,
        #"{"t":930000,"dev":2,"type":"finger","delta":{"x":0,"y":0}}"#,
    ]

    static func get(_ client: LineClient, _ name: String) -> [String: Any]? {
        client.request(["op": "get", "container": name], id: 50)
    }

    @Test func theFocusedCarouselMovesAndTheRecordingReplaysLineForLine() throws {
        let log = try Scrolld.temporaryFile(Self.events.joined(separator: "\n") + "\n", name: "nested.scrolllog")
        let recording = try Scrolld.temporaryFile("", name: "routing.scrolllog")
        let daemon = try DaemonProcess(config: Self.configuration, arguments: ["--record", recording, "--loop"], replay: log)
        defer { daemon.stop() }
        let requests = try LineClient(path: daemon.socketPath)
        let welcome = try #require(requests.read(type: "welcome"))
        #expect((welcome["features"] as? [String])?.contains("routing") == true)
        #expect(welcome["focus"] is NSNull)
        let collectors = try ["list", "a", "b"].map { try RecordReplayTests.Collector(path: daemon.socketPath, container: $0) }
        #expect(requests.request(["op": "focus", "container": "a"], id: 1)?["type"] as? String == "ok")
        // Until the focus has carried sideways input to "a" and the list has moved; then until
        // both rest once (the loop pauses a second between passes).
        #expect(waitUntil(timeout: 60) { (Self.get(requests, "a")?.number("contentOffset", "x") ?? 0) != 0 })
        #expect(waitUntil(timeout: 60) { (Self.get(requests, "list")?.y ?? 0) != 0 })
        #expect(waitUntil(timeout: 60) { ["list", "a"].allSatisfy { Self.get(requests, $0)?.phase == "idle" } })
        let devices = try #require(requests.request(["op": "devices"], id: 2))
        #expect(devices["focus"] as? String == "a")
        let late = try LineClient(path: daemon.socketPath)
        #expect(late.read(type: "welcome")?["focus"] as? String == "a")
        late.close()
        let live = Dictionary(uniqueKeysWithValues: zip(["list", "a", "b"], collectors.map { Array($0.stop().dropFirst()) }))
        requests.close()
        daemon.stop()

        // "b" is not focused and "a" has the focus: b never moved, a moved sideways only, the
        // list up and down only.
        #expect(live["b"]!.isEmpty)
        #expect(live["a"]!.contains { $0.number("contentOffset", "x") != 0 })
        #expect(live["a"]!.allSatisfy { $0.y == 0 })
        #expect(live["list"]!.allSatisfy { $0.number("contentOffset", "x") == 0 })
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(text.contains(#""request":{"op":"focus","container":"a"}"#))

        for (name, states) in live {
            let replay = try expectReplayReproduces(states, recording: recording, container: name)
            if name == "b" { #expect(replay.states.isEmpty) }
        }
    }
}
