import Foundation
import Testing

/// docs/design.md §25 through a real daemon: `scrolld run --replay` feeds a touchscreen's events
/// in real time, and a client on the Unix socket configures the container's `touchFrame`.
@Suite("scrolld run: a touchscreen drags and flings the container under the finger, over the socket", .serialized)
struct TouchSocketTests {
    /// One finger: down at `start`, `slow` motions of (−0.002, −0.004) per 16 ms (5.2 px each in
    /// the frame below: the first stays within the 8 px slop), then `fast` motions of
    /// (−0.01, −0.02) (24 px down-scale each: a flick), then the lift.
    struct Finger {
        static let start = (x: 0.4, y: 0.5)
        static let down: Int64 = 1_000_000
        static let slow = 10
        static let fast = 6
        static let interval: Int64 = 16_000

        static var points: [(t: Int64, x: Double, y: Double)] {
            (1...(slow + fast)).map { k in
                let s = Double(min(k, slow)), f = Double(max(0, k - slow))
                return (down + Int64(k) * interval, start.x - 0.002 * s - 0.01 * f, start.y - 0.004 * s - 0.02 * f)
            }
        }
        static var lift: Int64 { points.last!.t + 8_000 }
    }

    /// The frame: 0.4 × 0.5 of the glass for a 400 × 600 container, so `s` = (1000, 1200) px per
    /// unit, not the same on the two axes.
    static var frame: [String: Any] { ["x": 0.2, "y": 0.25, "width": 0.4, "height": 0.5] }
    static let scale = (x: 400 / 0.4, y: 600 / 0.5)
    static let slop = 8.0

    static func touchLog() throws -> String {
        try ScrolldTests.touchLog(down: Finger.down, start: Finger.start, points: Finger.points, lift: Finger.lift)
    }

    /// docs/design.md §25's offsets: nil while within the slop, then `y₀ − s·(P − P₀) + slop·u`
    /// (from rest at 0), computed in the model's order of operations.
    static var expectedOffsets: [(x: Double, y: Double)?] {
        var u: (x: Double, y: Double)?
        return Finger.points.map { p in
            let mx = scale.x * (p.x - Finger.start.x), my = scale.y * (p.y - Finger.start.y)
            let d = (mx * mx + my * my).squareRoot()
            if u == nil {
                guard d > slop else { return nil }
                u = (mx / d, my / d)
            }
            return (0 + (-mx + slop * u!.x), 0 + (-my + slop * u!.y))
        }
    }

    @Test func aClientConfiguresATouchFrameAndGetsTheSlopTheOneToOneDragAndTheFling() throws {
        // Looped: whenever the client's frame arrives, a whole finger follows it (a finger down
        // before the frame existed lands on nothing and moves nothing, to its lift).
        let daemon = try DaemonProcess(arguments: ["--loop"], replay: try Self.touchLog())
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        let configured = client.request([
            "op": "configure", "container": "glass", "axes": "both",
            "containerSize": ["width": 400, "height": 600], "contentSize": ["width": 4000, "height": 8000],
            "physics": ["touchSlop": Self.slop],
        ], id: 1)
        #expect(configured?["type"] as? String == "ok", "\(configured ?? [:])")
        let first = try #require(client.request(["op": "subscribe", "container": "glass"], id: 2))
        #expect(first.y == 0 && first.number("contentOffset", "x") == 0)
        // The frame only once subscribed: the first finger that moves it is then seen from its down.
        let framed = client.request(["op": "configure", "container": "glass", "touch_frame": Self.frame], id: 3)
        #expect(framed?["type"] as? String == "ok", "\(framed ?? [:])")

        // The states up to the lift's fling, and the fling's to rest.
        var before: [(x: Double, y: Double)] = [], dragging: [(x: Double, y: Double)] = [], after: [[String: Any]] = []
        while let text = client.readLine(timeout: 60), let line = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              line["type"] as? String == "state" {
            if dragging.isEmpty, line.phase != "interacting" { before.append(try Self.offset(text)); continue }
            if after.isEmpty, line.phase == "interacting" { dragging.append(try Self.offset(text)); continue }
            after.append(line)
            if line.phase != "decelerating" { break }
        }
        daemon.stop()

        // Within the slop nothing moved.
        #expect(before.allSatisfy { $0.x == 0 && $0.y == 0 })
        // Past it, every motion's offset exactly (the same offset published twice counts once).
        var offsets: [(x: Double, y: Double)] = []
        for offset in dragging where offsets.last.map({ $0.x != offset.x || $0.y != offset.y }) ?? true {
            offsets.append(offset)
        }
        let expected = Self.expectedOffsets
        #expect(expected.first! == nil && expected.dropFirst().allSatisfy { $0 != nil })
        let want = expected.compactMap { $0 }
        #expect(offsets.count == want.count, "\(offsets) against \(want)")
        for (got, wanted) in zip(offsets, want) {
            #expect(got.x == wanted.x && got.y == wanted.y, "offset \(got), want \(wanted)")
        }
        // The first moved state lags the finger by exactly the slop along its direction.
        let firstMoved = try #require(want.first)
        let p = Finger.points[1]
        let finger = (x: -Self.scale.x * (p.x - Finger.start.x), y: -Self.scale.y * (p.y - Finger.start.y))
        expectClose(((finger.x - firstMoved.x) * (finger.x - firstMoved.x) + (finger.y - firstMoved.y) * (finger.y - firstMoved.y)).squareRoot(), Self.slop)

        // The lift flings: decelerating, on in the finger's direction, to rest.
        let lift = try #require(after.first)
        #expect(lift.phase == "decelerating")
        #expect(lift.vy > 0 && (lift.number("velocity", "x") ?? 0) > 0)
        let ys = [want.last!.y] + after.map(\.y)
        #expect(zip(ys, ys.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(after.last?.phase == "idle" && after.last!.y > want.last!.y, "\(after.last ?? [:])")

        // The same samples as a touchpad's finger scroll, released at the lift's time: the same
        // velocity (scrolld replay: the daemon's own computation, docs/design.md §17).
        let release = try Self.fingerReleaseVelocity()
        #expect(lift.number("velocity", "x") == release.x && lift.vy == release.y,
                "touch lift \(lift["velocity"] ?? "-"), finger release \(release)")
    }

    /// A state line's `contentOffset`, read with `Double(_:)`: JSONSerialization may round the
    /// last digit of a double, and these offsets are compared exactly.
    static func offset(_ line: String) throws -> (x: Double, y: Double) {
        let match = try #require(line.firstMatch(of: /"contentOffset":\{"x":([^,}]+),"y":([^,}]+)\}/), "\(line)")
        return (try #require(Double(String(match.1))), try #require(Double(String(match.2))))
    }

    /// The velocity a touchpad's release gets from the touch's moved steps (each motion past the
    /// slop a finger delta of its change of offset, at its time), then a stop at the lift.
    static func fingerReleaseVelocity() throws -> (x: Double, y: Double) {
        var lines = [#"{"format":"scrolld-events","version":1,"created":"2026-11-27T00:00:00Z","source":"test"}"#]
        lines.append(#"{"t":0,"dev":1,"type":"device_added","name":"pad","caps":["finger"]}"#)
        var previous = (x: 0.0, y: 0.0)
        for (p, offset) in zip(Finger.points, expectedOffsets) {
            guard let offset else { continue }
            lines.append(#"{"t":\#(p.t),"dev":1,"type":"finger","delta":{"x":\#(offset.x - previous.x),"y":\#(offset.y - previous.y)}}"#)
            previous = offset
        }
        lines.append(#"{"t":\#(Finger.lift),"dev":1,"type":"finger","delta":{"x":0,"y":0}}"#)
        let log = try Scrolld.temporaryFile(lines.joined(separator: "\n") + "\n")
        let config = try Scrolld.temporaryFile(
            "[containers.main]\naxes = \"both\"\ncontainerSize = \"400x600\"\ncontentSize = \"4000x8000\"\n", name: "scrolld.toml")
        let replay = try Scrolld.run(["replay", log, "--config", config, "--container", "main"])
        #expect(replay.status == 0, "\(replay.stderr)")
        let atStop = try #require(replay.states.last { $0.t == Finger.lift }, "\(replay.lines.suffix(5))")
        #expect(atStop.phase == "decelerating")
        return (atStop.number("velocity", "x") ?? .nan, atStop.vy)
    }

    @Test func aBadTouchFrameIsRefusedWithAnErrorNamingTheKey() throws {
        let daemon = try DaemonProcess()
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        let cases: [([String: Any], String)] = [
            (["touch_frame": ["x": 0, "y": 0, "width": 0, "height": 1]],
             "containers.main.touch_frame.width: must be between 0.0001 and 1, got 0"),
            (["touch_frame": ["x": 3, "y": 0, "width": 1, "height": 1]],
             "containers.main.touch_frame.x: must be between -1 and 2, got 3"),
            (["touch_frame": ["x": 0, "y": 0, "width": 1, "height": 1, "depth": 1]],
             "containers.main.touch_frame.depth: unknown touch_frame key (x, y, width, height)"),
            (["physics": ["touchSlop": -1]], "containers.main.physics.touch_slop: must be between 0 and 10000, got -1"),
            (["containerSize": ["width": 10, "height": 10, "depth": 3]], "containers.main.containerSize.depth: unknown size key (width, height)"),
        ]
        for (index, (keys, message)) in cases.enumerated() {
            var request: [String: Any] = ["op": "configure", "container": "main"]
            request.merge(keys) { $1 }
            let reply = client.request(request, id: index + 1)
            #expect(reply?["code"] as? String == "invalid_value", "\(reply ?? [:])")
            #expect(reply?["message"] as? String == message, "\(reply ?? [:])")
        }
        // The connection serves on: a good frame is accepted after the refused ones.
        let ok = client.request(["op": "configure", "container": "main", "touch_frame": ["x": 0, "y": 0, "width": 1, "height": 1]], id: 9)
        #expect(ok?["type"] as? String == "ok")
        // The protocol's spelling of the key, camelCase, is the same key (docs/protocol.md).
        let camel = client.request(["op": "configure", "container": "main", "touchFrame": ["x": 0, "y": 0, "width": 2, "height": 1]], id: 10)
        #expect(camel?["code"] as? String == "invalid_value")
        #expect((camel?["message"] as? String)?.hasPrefix("containers.main.touch_frame.width:") == true, "\(camel ?? [:])")
        #expect(client.request(["op": "configure", "container": "main", "touchFrame": ["x": 0, "y": 0, "width": 0.5, "height": 1]], id: 11)?["type"] as? String == "ok")
        #expect(daemon.stop() == 0)
    }
}
