@testable import ScrollModel
import Testing

/// docs/design.md §14, as a property: over random nested configurations and event sequences,
/// routed input is a partition of the input — each axis of each event reaches exactly one
/// container, none twice, none lost unless every candidate is paused — and every container
/// publishes exactly what it publishes alone, given the same routed events: phases, offsets,
/// velocities, headers, frames, bit for bit.
@Suite("Routing properties over random nested containers")
struct RoutingPropertyTests {
    /// SplitMix64: a small deterministic generator, so that every run tests the same cases.
    struct Seeded: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    /// Containers 1…4 nest in an earlier one (or none); each has random axes, sizes,
    /// overscroll, wheel animation, profile and, sometimes, a header.
    static func configurations(_ random: inout Seeded) -> [ContainerConfiguration] {
        let count = Int.random(in: 2...5, using: &random)
        return (0..<count).map { index in
            let axes: Axis.Set = [.vertical, .horizontal, .both].randomElement(using: &random)!
            let size = Size(width: Double.random(in: 100...800, using: &random).rounded(), height: Double.random(in: 100...600, using: &random).rounded())
            let content = Size(width: size.width * Double.random(in: 0.5...4, using: &random), height: size.height * Double.random(in: 0.5...4, using: &random))
            var configuration = ContainerConfiguration(
                containerSize: size, contentSize: content, axes: axes,
                header: Bool.random(using: &random) ? HeaderConfiguration(minHeight: 20, maxHeight: 80) : nil,
                physics: ScrollPhysics(profile: [.ios, .ios, .gtk, .none].randomElement(using: &random)!),
                parent: index > 0 && Int.random(in: 0..<4, using: &random) > 0 ? "c\(Int.random(in: 0..<index, using: &random))" : nil,
                overscroll: OverscrollBehavior.allCases.randomElement(using: &random)!
            )
            if Bool.random(using: &random) { configuration.physics.wheelAnimation = .none }
            return configuration
        }
    }

    /// A random gesture from `time` on: wheel clicks, a (diagonal) drag and its stop, a hold, a
    /// continuous scroll, or quiet time.
    static func gesture(_ random: inout Seeded, at time: inout Timestamp) -> [ScrollEvent] {
        func next(_ gap: Timestamp) -> Timestamp { time += gap; return time }
        func value(_ scale: Double) -> Double { (Double.random(in: -1...1, using: &random) * scale).rounded() }
        var events: [ScrollEvent] = []
        switch Int.random(in: 0..<7, using: &random) {
        case 0:
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                let x: Double? = Bool.random(using: &random) ? value(240) : nil
                events.append(ScrollEvent(time: next(Timestamp.random(in: 5_000...300_000, using: &random)), device: 1,
                                          kind: .wheel(v120: AxisValues(x: x, y: x == nil || Bool.random(using: &random) ? value(240) : nil), degrees: nil)))
            }
        case 1, 2:
            let dx = value(30), dy = value(30)
            let diagonal = Int.random(in: 0..<3, using: &random)
            for _ in 0..<Int.random(in: 2...8, using: &random) {
                let delta = AxisValues(x: diagonal == 1 ? nil : dx + value(3), y: diagonal == 2 ? nil : dy + value(3))
                events.append(ScrollEvent(time: next(8_000), device: 2, kind: .finger(delta)))
            }
            events.append(ScrollEvent(time: next(8_000), device: 2, kind: .finger(AxisValues(x: diagonal == 1 ? nil : 0, y: diagonal == 2 ? nil : 0))))
        case 3:
            events.append(ScrollEvent(time: next(20_000), device: 2, kind: .holdBegin(fingers: 2)))
            events.append(ScrollEvent(time: next(Timestamp.random(in: 10_000...300_000, using: &random)), device: 2, kind: .holdEnd(fingers: 2, cancelled: Bool.random(using: &random))))
        case 4:
            events.append(ScrollEvent(time: next(7_000), device: 3, kind: .continuous(AxisValues(y: value(400)))))
            events.append(ScrollEvent(time: next(7_000), device: 3, kind: .continuous(AxisValues(y: 0))))
        default:
            _ = next(Timestamp.random(in: 0...1_500_000, using: &random))
        }
        return events
    }

    /// What a container receives of `event` along `axes`, built here independently of the
    /// engine's own restriction.
    static func part(of event: ScrollEvent, along axes: Axis.Set) -> ScrollEvent {
        func keep(_ v: AxisValues) -> AxisValues {
            AxisValues(x: axes.contains(.horizontal) ? v.x : nil, y: axes.contains(.vertical) ? v.y : nil)
        }
        var part = event
        switch event.kind {
        case let .wheel(v120, degrees): part.kind = .wheel(v120: keep(v120), degrees: degrees.map(keep))
        case let .finger(delta): part.kind = .finger(keep(delta))
        case let .continuous(delta): part.kind = .continuous(keep(delta))
        default: break
        }
        return part
    }

    static func presentAxes(_ event: ScrollEvent) -> [Axis] {
        let values: AxisValues
        switch event.kind {
        case .wheel(let v120, _): values = v120
        case .finger(let delta), .continuous(let delta): values = delta
        default: return []
        }
        return Axis.allCases.filter { values[$0] != nil }
    }

    struct Published: Equatable {
        var state: ScrollState
        var cause: ScrollEngine.Cause
    }

    @Test(arguments: 0..<120)
    func routedInputIsAPartitionAndEachContainerActsAsAlone(seed: Int) {
        var random = Seeded(state: UInt64(seed) &* 7919 &+ 1)
        let configurations = Self.configurations(&random)
        let count = configurations.count
        var engine = ScrollEngine()
        var lone: [ScrollEngine] = []
        for (index, configuration) in configurations.enumerated() {
            engine.add(ScrollContainer(name: "c\(index)", configuration: configuration, at: 0))
            var alone = ScrollEngine()
            alone.add(ScrollContainer(name: "c\(index)", configuration: configuration, at: 0))
            lone.append(alone)
        }
        engine.setFocus(Int.random(in: 0..<count, using: &random))
        var nested = Array(repeating: [Published](), count: count)
        var alone = Array(repeating: [Published](), count: count)
        var time: Timestamp = 1_000_000
        for _ in 0..<40 {
            // Now and then a container is paused or resumed between gestures.
            if Int.random(in: 0..<6, using: &random) == 0 {
                let index = Int.random(in: 0..<count, using: &random)
                engine.setPaused(!engine.slots[index].isPaused, container: index)
            }
            for event in Self.gesture(&random, at: &time) {
                var inputs = Array(repeating: 0, count: count)
                engine.handle(event) { update in
                    nested[update.container].append(Published(state: update.state, cause: update.cause))
                    if update.cause == .input { inputs[update.container] += 1 }
                }
                let routed = engine.router.routed
                // Each container is given the event at most once, exactly when routed some of it.
                for index in 0..<count { #expect(inputs[index] == (routed[index].isEmpty ? 0 : 1)) }
                // Each present axis reaches exactly one container; none only when every
                // container of the focus' chain is paused.
                var chainPaused = true
                var current = engine.focus!
                while current >= 0 {
                    if !engine.slots[current].isPaused { chainPaused = false }
                    current = engine.router.parents[current]
                }
                for axis in Self.presentAxes(event) {
                    let set: Axis.Set = axis == .horizontal ? .horizontal : .vertical
                    let receivers = routed.filter { $0.contains(set) }.count
                    #expect(receivers == (chainPaused ? 0 : 1), "seed \(seed): \(event) along \(axis)")
                }
                // The same parts, each to its container alone.
                for index in 0..<count {
                    lone[index].advance(to: event.time) { alone[index].append(Published(state: $0.state, cause: $0.cause)) }
                    guard !routed[index].isEmpty else { continue }
                    lone[index].handle(Self.part(of: event, along: routed[index])) {
                        alone[index].append(Published(state: $0.state, cause: $0.cause))
                    }
                }
            }
        }
        var ticks = 0
        while let next = engine.nextDeadline, ticks < 200_000 {
            engine.advance(to: next) { nested[$0.container].append(Published(state: $0.state, cause: $0.cause)) }
            ticks += 1
        }
        for index in 0..<count {
            ticks = 0
            while let next = lone[index].nextDeadline, ticks < 200_000 {
                lone[index].advance(to: next) { alone[index].append(Published(state: $0.state, cause: $0.cause)) }
                ticks += 1
            }
            #expect(nested[index].count == alone[index].count, "seed \(seed), container \(index)")
            let first = zip(nested[index], alone[index]).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            #expect(first == nil, "seed \(seed), container \(index): state \(first ?? -1) differs")
        }
    }
}
