import Foundation
import Testing

/// docs/design.md §22's directional lock on a touchscreen, through a real daemon: `scrolld run
/// --replay` feeds a finger moving up the glass and a little sideways (1 px across for 12 px up,
/// under tan 22.5°), and a client configures a two-axis container with `directionalLock`.
@Suite("scrolld run: the directional lock holds a nearly vertical touch drag to y, over the socket", .serialized)
struct TouchLockSocketTests {
    /// One finger: down at `start`, 16 motions 16 ms apart of (−0.001, −0.01) each (1 px left
    /// and 12 px up in the frame below), then the lift: a flick.
    static let start = (x: 0.4, y: 0.5)
    static let down: Int64 = 1_000_000
    static let interval: Int64 = 16_000
    static var points: [(t: Int64, x: Double, y: Double)] {
        (1...16).map { (k: Int) -> (t: Int64, x: Double, y: Double) in
            let t: Int64 = down + Int64(k) * interval
            let n = Double(k)
            return (t, start.x - 0.001 * n, start.y - 0.01 * n)
        }
    }
    static var lift: Int64 { points.last!.t + 8_000 }
    /// The frame of TouchSocketTests: s = (1000, 1200) px per unit.
    static var frame: [String: Any] { TouchSocketTests.frame }
    static var scale: (x: Double, y: Double) { TouchSocketTests.scale }
    static var slop: Double { TouchSocketTests.slop }

    static func touchLog() throws -> String {
        try ScrolldTests.touchLog(down: down, start: start, points: points, lift: lift)
    }

    /// The y offsets the lock lets through, from rest at 0: docs/design.md §25's displacement
    /// `−s·(P − P₀) + slop·u` once its steps have travelled 10 px and decided (here: locked to
    /// y, checked), none before.
    static var expectedY: [Double] {
        var u: (x: Double, y: Double)?
        var previous = (x: 0.0, y: 0.0), sum = (x: 0.0, y: 0.0), travelled = 0.0
        var out: [Double] = []
        for p in points {
            let mx = scale.x * (p.x - start.x), my = scale.y * (p.y - start.y)
            let d = (mx * mx + my * my).squareRoot()
            if u == nil {
                guard d > slop else { continue }
                u = (mx / d, my / d)
            }
            let displacement = (x: -mx + slop * u!.x, y: -my + slop * u!.y)
            if travelled < 10 {
                let step = (x: displacement.x - previous.x, y: displacement.y - previous.y)
                sum = (sum.x + step.x, sum.y + step.y)
                travelled += abs(step.x) + abs(step.y)
                previous = displacement
                guard travelled >= 10 else { continue }
                precondition(abs(sum.x) <= (2.0.squareRoot() - 1) * abs(sum.y), "the drag is meant to lock to y")
            }
            out.append(0 + displacement.y)
        }
        return out
    }

    @Test func aNearlyVerticalTouchDragAndItsFlingNeverMoveX() throws {
        // Looped: whenever the client's frame arrives, a whole finger follows it.
        let daemon = try DaemonProcess(arguments: ["--loop"], replay: try Self.touchLog())
        let client = try LineClient(path: daemon.socketPath)
        _ = client.readJSON()
        let configured = client.request([
            "op": "configure", "container": "canvas", "axes": "both", "directionalLock": true,
            "containerSize": ["width": 400, "height": 600], "contentSize": ["width": 4000, "height": 8000],
        ], id: 1)
        #expect(configured?["type"] as? String == "ok", "\(configured ?? [:])")
        _ = try #require(client.request(["op": "subscribe", "container": "canvas"], id: 2))
        let framed = client.request(["op": "configure", "container": "canvas", "touch_frame": Self.frame], id: 3)
        #expect(framed?["type"] as? String == "ok", "\(framed ?? [:])")

        // The states of the first whole finger: held, then dragging, then its fling to rest.
        var xs: [Double] = [], dragging: [Double] = [], after: [[String: Any]] = []
        while let text = client.readLine(timeout: 60), let line = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any],
              line["type"] as? String == "state" {
            let offset = try TouchSocketTests.offset(text)
            xs.append(offset.x)
            if after.isEmpty, line.phase == "interacting" {
                if dragging.last != offset.y { dragging.append(offset.y) }
                continue
            }
            if dragging.isEmpty || dragging == [0] { continue }
            after.append(line)
            if line.phase != "decelerating" { break }
        }
        daemon.stop()

        #expect(xs.allSatisfy { $0 == 0 }, "x moved: \(Set(xs))")
        let want = Self.expectedY
        #expect(want.count == Self.points.count - 1, "the first motion, past the slop by 4 px, is held")
        #expect(Array(dragging.drop { $0 == 0 }) == want, "\(dragging) against \(want)")
        let lift = try #require(after.first)
        #expect(lift.phase == "decelerating")
        #expect(lift.number("velocity", "x") == 0 && lift.vy > 0)
        #expect(after.last?.phase == "idle" && after.last!.y > want.last!, "\(after.last ?? [:])")
    }
}
