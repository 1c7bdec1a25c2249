import Foundation
import Testing

/// docs/design.md §14 through the real `scrolld replay`: real event logs (with a recorded `focus`
/// request, or `--focus`), nested containers set with `--set`, one container printed at a time.
@Suite("scrolld replay: routing between nested containers")
struct RoutingReplayTests {
    let header = #"{"format":"scrolld-events","version":1,"created":"2026-11-25T12:00:00Z","source":"routing test"}"#

    func log(_ lines: [String]) throws -> String {
        try Scrolld.temporaryFile(([header] + lines).joined(separator: "\n") + "\n")
    }

    /// A vertical list (800 × 600 showing 3000) with a horizontal carousel (800 × 200 showing
    /// 2400) in it; wheels jump.
    static let listOfCarousels = [
        "--set", "containers.list.contentSize=800x3000",
        "--set", "containers.carousel.parent=list", "--set", "containers.carousel.axes=horizontal",
        "--set", "containers.carousel.containerSize=800x200", "--set", "containers.carousel.contentSize=2400x200",
        "--set", "physics.wheel_animation=none",
    ]

    static func states(_ states: [[String: Any]], at t: Int64) -> [[String: Any]] {
        states.filter { $0.t == t }
    }

    static func x(_ state: [String: Any]) -> Double { state.number("contentOffset", "x") ?? .nan }

    @Test func theFocusedCarouselTakesSidewaysInputAndTheListUpAndDown() throws {
        let path = try log([
            #"{"t":1000000,"type":"request","client":1,"request":{"op":"focus","container":"carousel"}}"#,
            #"{"t":1100000,"dev":1,"type":"wheel","v120":{"x":120}}"#,
            #"{"t":1200000,"dev":1,"type":"wheel","v120":{"y":120}}"#,
            #"{"t":2000000,"dev":2,"type":"finger","delta":{"x":25}}"#,
            #"{"t":2010000,"dev":2,"type":"finger","delta":{"x":25}}"#,
            #"{"t":2020000,"dev":2,"type":"finger","delta":{"x":0}}"#,
            #"{"t":5000000,"dev":2,"type":"finger","delta":{"x":10,"y":5}}"#,
            #"{"t":5010000,"dev":2,"type":"finger","delta":{"x":10,"y":5}}"#,
            #"{"t":5020000,"dev":2,"type":"finger","delta":{"x":10,"y":5}}"#,
            #"{"t":5030000,"dev":2,"type":"finger","delta":{"x":0,"y":0}}"#,
        ])
        let carousel = try Scrolld.run(["replay", path, "--container", "carousel"] + Self.listOfCarousels)
        #expect(carousel.status == 0, "\(carousel.stderr)")
        let list = try Scrolld.run(["replay", path, "--container", "list"] + Self.listOfCarousels)
        #expect(list.status == 0, "\(list.stderr)")
        let c = carousel.states, l = list.states

        // The sideways wheel moves the carousel by its own step, 800^(2/3); the list hears
        // nothing of it. The vertical wheel moves the list by 600^(2/3), not the carousel.
        let step = pow(800.0, 2.0 / 3.0)
        expectClose(Self.x(try #require(Self.states(c, at: 1_100_000).first)), step)
        #expect(Self.states(l, at: 1_100_000).isEmpty)
        #expect(Self.states(c, at: 1_200_000).isEmpty)
        expectClose(try #require(Self.states(l, at: 1_200_000).first).y, pow(600.0, 2.0 / 3.0))
        // Finger input sideways: the carousel only.
        expectClose(Self.x(try #require(Self.states(c, at: 2_000_000).first)), step + 25)
        expectClose(Self.x(try #require(Self.states(c, at: 2_010_000).first)), step + 50)
        for t: Int64 in [2_000_000, 2_010_000, 2_020_000] { #expect(Self.states(l, at: t).isEmpty) }
        // A diagonal drag moves each along its own axis, with its own release velocity.
        let cx = [5_000_000, 5_010_000, 5_020_000].map { Self.x(Self.states(c, at: $0)[0]) }
        let ly = [5_000_000, 5_010_000, 5_020_000].map { Self.states(l, at: $0)[0].y }
        #expect([cx[1] - cx[0], cx[2] - cx[1]] == [10, 10])
        #expect([ly[1] - ly[0], ly[2] - ly[1]] == [5, 5])
        let cStop = try #require(Self.states(c, at: 5_030_000).first)
        let lStop = try #require(Self.states(l, at: 5_030_000).first)
        expectClose(cStop.number("velocity", "x")!, 1000)
        expectClose(lStop.vy, 500)
        #expect(cStop.phase == "decelerating" && lStop.phase == "decelerating")
        // Neither ever moves along the other's axis.
        #expect(c.allSatisfy { $0.y == 0 })
        #expect(l.allSatisfy { Self.x($0) == 0 })
    }

    @Test func withoutAFocusANestedCarouselHearsNothing() throws {
        let path = try log([#"{"t":1100000,"dev":1,"type":"wheel","v120":{"x":120,"y":120}}"#])
        let carousel = try Scrolld.run(["replay", path, "--container", "carousel"] + Self.listOfCarousels)
        #expect(carousel.status == 0, "\(carousel.stderr)")
        #expect(carousel.states.isEmpty)
        let focused = try Scrolld.run(["replay", path, "--container", "carousel", "--focus", "carousel"] + Self.listOfCarousels)
        #expect(focused.states.first?.t == 1_100_000)
        let unknown = try Scrolld.run(["replay", path, "--container", "carousel", "--focus", "nope"] + Self.listOfCarousels)
        #expect(unknown.status != 0)
        #expect(unknown.stderr.contains("nope"))
    }

    /// A vertical child (800 × 300 showing 600) in a vertical page (800 × 600 showing 3000),
    /// focused.
    static func pair(_ overscroll: String, anchor: String = "top") -> [String] {
        [
            "--set", "containers.page.contentSize=800x3000",
            "--set", "containers.inner.parent=page", "--set", "containers.inner.overscroll=\(overscroll)",
            "--set", "containers.inner.containerSize=800x300", "--set", "containers.inner.contentSize=800x600",
            "--set", "containers.inner.anchor=\(anchor)", "--focus", "inner",
        ]
    }

    /// b(x) = x·d·c / (d + c·x), docs/design.md §5, for the child's d = 300.
    static func band(_ x: Double) -> Double { x * 300 * 0.55 / (300 + 0.55 * x) }

    @Test(arguments: ["auto", "contain", "none"])
    func aNewDownwardGestureAtTheChildsBottomEdge(overscroll: String) throws {
        // The child starts at its bottom edge (anchor = "bottom": hi = 300).
        let path = try log([
            #"{"t":1000000,"dev":2,"type":"finger","delta":{"y":10}}"#,
            #"{"t":1010000,"dev":2,"type":"finger","delta":{"y":10}}"#,
            #"{"t":1020000,"dev":2,"type":"finger","delta":{"y":0}}"#,
        ])
        let page = try Scrolld.run(["replay", path, "--container", "page"] + Self.pair(overscroll, anchor: "bottom"))
        let inner = try Scrolld.run(["replay", path, "--container", "inner"] + Self.pair(overscroll, anchor: "bottom"))
        #expect(page.status == 0 && inner.status == 0, "\(page.stderr) \(inner.stderr)")
        switch overscroll {
        case "auto":
            // The page moves; the child, resting at its edge, hears nothing.
            #expect(page.states.prefix(3).map(\.y) == [10, 20, 20])
            #expect(page.states[2].phase == "decelerating")
            expectClose(page.states[2].vy, 1000)
            #expect(inner.states.isEmpty)
        case "contain":
            // The child rubber-bands with its own height and bounces back; the page hears nothing.
            expectClose(inner.states[0].y, 300 + Self.band(10))
            expectClose(inner.states[1].y, 300 + Self.band(20))
            #expect(inner.states.last?.y == 300)
            #expect(inner.states.last?.phase == "idle")
            #expect(page.states.isEmpty)
        default:
            // Stops dead: no overscroll (the release's fling ends at the edge), nothing handed on.
            #expect(inner.states.count >= 3)
            #expect(inner.states.allSatisfy { $0.y == 300 })
            #expect(inner.states.last?.phase == "idle")
            #expect(page.states.isEmpty)
        }
    }

    @Test func aGestureThatStartedInTheChildStaysThereItsFlingToo() throws {
        var lines = [
            // 10 px from the bottom: the drag starts in the child and keeps it past the edge.
            #"{"t":900000,"type":"request","client":1,"request":{"op":"scrollTo","container":"inner","y":290,"animation":"none"}}"#,
        ]
        for i in 0..<4 { lines.append(#"{"t":\#(1_000_000 + i * 10_000),"dev":2,"type":"finger","delta":{"y":5}}"#) }
        lines.append(#"{"t":1040000,"dev":2,"type":"finger","delta":{"y":0}}"#)
        // From the top, fast: the fling runs into the child's edge and bounces there.
        lines.append(#"{"t":3000000,"type":"request","client":1,"request":{"op":"scrollTo","container":"inner","y":0,"animation":"none"}}"#)
        for i in 0..<5 { lines.append(#"{"t":\#(3_100_000 + i * 10_000),"dev":2,"type":"finger","delta":{"y":20}}"#) }
        lines.append(#"{"t":3150000,"dev":2,"type":"finger","delta":{"y":0}}"#)
        // At rest at the edge now: the next downward gesture goes to the page.
        lines.append(#"{"t":9000000,"dev":2,"type":"finger","delta":{"y":7}}"#)
        lines.append(#"{"t":9010000,"dev":2,"type":"finger","delta":{"y":0}}"#)
        let path = try log(lines)
        let page = try Scrolld.run(["replay", path, "--container", "page"] + Self.pair("auto"))
        let inner = try Scrolld.run(["replay", path, "--container", "inner"] + Self.pair("auto"))
        #expect(page.status == 0 && inner.status == 0, "\(page.stderr) \(inner.stderr)")
        let drag = [1_000_000, 1_010_000, 1_020_000, 1_030_000].map { Self.states(inner.states, at: $0)[0].y }
        #expect(drag[0] == 295 && drag[1] == 300)
        expectClose(drag[2], 300 + Self.band(5))
        expectClose(drag[3], 300 + Self.band(10))
        let fling = inner.states.filter { ($0.t ?? 0) >= 3_150_000 && ($0.t ?? 0) < 9_000_000 }
        #expect(fling.first?.phase == "decelerating")
        expectClose(fling.first?.vy ?? 0, 2000)
        #expect(fling.contains { $0.y > 300 })  // past the child's edge, bouncing in the child
        #expect(fling.last?.y == 300 && fling.last?.phase == "idle")
        // The page heard nothing until the last gesture, which it takes from the start.
        #expect(page.states.allSatisfy { ($0.t ?? 0) >= 9_000_000 })
        #expect(page.states.first?.y == 7)
        #expect(inner.states.allSatisfy { ($0.t ?? 0) < 9_000_000 })
    }
}
