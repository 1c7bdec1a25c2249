import Foundation
import Testing

@Suite("Golden replays of examples/")
struct DemoGoldenTests {
    @Test(arguments: ["demo.scrolllog", "real-kernel.scrolllog"])
    func examplesWithoutWheelAnimationMatchTheFormulasStateByState(_ example: String) throws {
        let log = Scrolld.example(example)
        // The oracle is §5's physics: without the scroll indicator's hide states (§22).
        let result = try Scrolld.run(["replay", log, "--set", "physics.wheel_animation=none", "--set", "containers.main.indicator_linger_ms=0"])
        #expect(result.status == 0, "\(result.stderr)")
        let states = result.states
        let expected = try DemoOracle.expected(for: log)
        #expect(states.count == expected.count)
        #expect(expected.count > 50)
        for (index, (state, want)) in zip(states, expected).enumerated() {
            #expect(state.int("seq") == index + 1)
            #expect(state.t == want.t, "state \(index + 1): \(want)")
            #expect(state.phase == want.phase, "state \(index + 1): \(want)")
            expectClose(state.y, want.y, "state \(index + 1): \(want)")
            expectClose(state.vy, want.v, tolerance: 1e-7, "state \(index + 1) velocity: \(want)")
            #expect(state.number("contentOffset", "x") == 0)
            #expect(state.number("velocity", "x") == 0)
            if state.t != want.t { break }
        }
        // What the examples are for: they fling; the demo also passes the top edge.
        #expect(expected.contains { $0.phase == "decelerating" && $0.v > 100 })
        if example == "demo.scrolllog" { #expect(expected.contains { $0.y < -50 }) }
        #expect(states.last?.phase == "idle")
    }

    @Test func demoWithSmoothWheelsFollowsTheRetargetedSpring() throws {
        let log = Scrolld.example("demo.scrolllog")
        // Seconds after the first event line: detents at 1.000 and 1.080.
        let result = try Scrolld.run(["replay", log, "--at", "1.05,1.1"])
        #expect(result.status == 0, "\(result.stderr)")
        let states = result.states
        try #require(states.count == 2)
        let step = pow(600.0, 2.0 / 3.0), omega = 2 * Double.pi / 0.2
        func spring(_ tau: Double, _ y0: Double, _ v0: Double, _ target: Double) -> (Double, Double) {
            let c1 = y0 - target, c2 = v0 + omega * c1
            return (target + exp(-omega * tau) * (c1 + c2 * tau), exp(-omega * tau) * (c2 - omega * (c1 + c2 * tau)))
        }
        let first = spring(0.05, 0, 0, step)
        expectClose(states[0].y, first.0)
        expectClose(states[0].vy, first.1)
        #expect(states[0].t == 1_001_050_000)
        let handover = spring(0.08, 0, 0, step)
        let second = spring(0.02, handover.0, handover.1, 2 * step)
        expectClose(states[1].y, second.0)
        expectClose(states[1].vy, second.1)
        #expect(states[1].phase == "interacting")
    }

    @Test func twoReplaysOfTheSameLogPrintIdenticalBytes() throws {
        let log = Scrolld.example("demo.scrolllog")
        let a = try Scrolld.run(["replay", log])
        let b = try Scrolld.run(["replay", log])
        #expect(a.status == 0)
        #expect(a.stdout == b.stdout)
        #expect(a.stdout.count > 10_000)
    }
}

extension Dictionary where Key == String, Value == Any {
    func int(_ key: String) -> Int? { (self[key] as? NSNumber)?.intValue }
}
