@testable import ScrollModel
import Testing

/// The engine's share of docs/design.md "Limits": no published state carries a non-finite
/// number, a read costs one container, and a frame of many containers costs one pass.
@Suite struct LimitsTests {
    /// A spring no request can give any more (stiffness and damping 1e308: its motion is NaN
    /// from the first frame) comes to rest where it started instead of publishing NaN, which
    /// the state line used to write as 0 while the header said collapsed.
    @Test func aMotionThatGoesNonFiniteComesToRestInsteadOfBeingPublished() {
        var configuration = ContainerConfiguration()
        configuration.header = HeaderConfiguration(minHeight: 40, maxHeight: 120, stretch: true, snap: true)
        var engine = ScrollEngine()
        engine.add(ScrollContainer(name: "main", configuration: configuration))
        var states: [ScrollState] = []
        let start = engine.update(container: 0, at: 1_000) { $0.scroll(to: AxisValues(y: 300), animation: .none, at: 1_000) }
        #expect(start.geometry.contentOffset.y == 300)
        let absurd = Spring(stiffness: 1e308, damping: 1e308)
        states.append(engine.update(container: 0, at: 2_000) {
            $0.scroll(to: AxisValues(y: 900), animation: .spring(absurd), at: 2_000)
        })
        var ticks = 0
        while let next = engine.nextDeadline, ticks < 1_000 {
            engine.advance(to: next) { states.append($0.state) }
            ticks += 1
        }
        #expect(ticks < 1_000, "the motion never ended")
        #expect(states.allSatisfy { $0.isFinite }, "\(states.map(\.geometry.contentOffset.y))")
        #expect(engine[0].state.phase == .idle)
        #expect(engine[0].state.geometry.contentOffset.y == 300)
        #expect(engine[0].state.header?.height == 40)
    }

    /// The mutant check of the test above: the same spring, on a container left alone, is
    /// NaN; so the test fails without the engine's check.
    @Test func thatSpringIsNonFiniteOnItsOwn() {
        let curve = SpringCurve(from: 300, velocity: 0, target: 900, spring: Spring(stiffness: 1e308, damping: 1e308))
        #expect(!curve.position(at: 1.0 / 120).isFinite)
    }

    /// A drag at the largest finger scale a file allows, with deltas as large as a double holds
    /// (an event log takes any finite number): what the finger reaches stays finite for a
    /// while, but past `Limits.stateMagnitude` — more than any container reaches, and what a
    /// restart's store keeps — the motion ends as a non-finite one does, where it last was
    /// within it.
    @Test func aMotionPastTheStateMagnitudeComesToRestInsteadOfBeingPublished() {
        var configuration = ContainerConfiguration()
        configuration.physics.fingerScale = Limits.magnitude
        var engine = ScrollEngine()
        engine.add(ScrollContainer(name: "main", configuration: configuration))
        var states: [ScrollState] = []
        for step in 1...5 {
            engine.handle(.finger(Timestamp(1_000_000 + step * 5_000), y: -1.7e308)) { states.append($0.state) }
        }
        engine.handle(.finger(1_040_000, y: 0)) { states.append($0.state) }
        while let next = engine.nextDeadline, states.count < 10_000 {
            engine.advance(to: next) { states.append($0.state) }
        }
        let largest = states.map { max(abs($0.velocity.x), abs($0.velocity.y), abs($0.geometry.contentOffset.y)) }.max() ?? 0
        #expect(largest <= Limits.stateMagnitude, "\(largest)")
        #expect(engine[0].state.phase == .idle)
    }

    /// A read (`get`, a new subscriber) evaluates the one container on a copy: the same state
    /// as advancing a copy of the whole engine, at every instant of a motion.
    @Test func aSampleOfOneContainerIsTheWholeEnginesSample() {
        var engine = ScrollEngine()
        engine.add(ScrollContainer(name: "a"))
        engine.add(ScrollContainer(name: "b"))
        engine.handle(.finger(1_000, y: 40)) { _ in }
        engine.handle(.finger(9_000, y: 60)) { _ in }
        engine.handle(.stop(17_000)) { _ in }
        _ = engine.update(container: 1, at: 20_000) { $0.scroll(to: AxisValues(y: 500), animation: .smooth, at: 20_000) }
        for time in stride(from: Timestamp(20_000), through: 900_000, by: 7_919) {
            for index in 0..<2 {
                var copy = engine
                let whole = copy.sample(container: index, at: time)
                let one = engine.sampled(container: index, at: time)
                #expect(whole == one, "container \(index) at \(time)")
            }
        }
    }

    /// Containers that move together fire together: every frame publishes each container's
    /// state once per instant, in index order, as firing them one at a time did.
    @Test func containersDueAtOneInstantFireInIndexOrder() {
        var engine = ScrollEngine()
        for index in 0..<50 { engine.add(ScrollContainer(name: "c\(index)")) }
        var updates: [(Int, Timestamp)] = []
        engine.handle(.wheel(1_000, y: 120)) { updates.append(($0.container, $0.state.time)) }
        #expect(updates.map(\.0) == Array(0..<50))
        updates.removeAll()
        engine.advance(to: 100_000) { updates.append(($0.container, $0.state.time)) }
        let instants = Dictionary(grouping: updates, by: \.1)
        #expect(!instants.isEmpty)
        for (_, fired) in instants { #expect(fired.map(\.0) == Array(0..<50)) }
        #expect(updates.map(\.1) == updates.map(\.1).sorted())
    }
}
