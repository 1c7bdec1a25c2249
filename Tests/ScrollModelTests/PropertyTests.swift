import PropertyBased
import ScrollModel
import Testing

/// Random sessions: whatever the input, once it stops the container comes to rest inside its
/// range, idle, with nothing NaN or infinite, and the same input always gives the same states.
@Suite("Properties over random event sequences")
struct PropertyTests {
    /// Containers including degenerate ones: zero size, content smaller than the container,
    /// insets, both axes, every profile, header and rows, lengths at both ends of their range.
    static let configurations: [ContainerConfiguration] = {
        var plain = ContainerConfiguration()
        var zero = ContainerConfiguration(containerSize: .zero, contentSize: .zero)
        zero.physics.wheelAnimation = .smooth
        let small = ContainerConfiguration(containerSize: Size(width: 800, height: 600), contentSize: Size(width: 100, height: 50))
        var both = ContainerConfiguration(contentSize: Size(width: 5000, height: 5000), contentInsets: EdgeInsets(top: 30, leading: 10, bottom: 20, trailing: 5), axes: .both)
        both.physics = ScrollPhysics(profile: .gtk)
        var list = ContainerConfiguration(contentSize: nil, header: HeaderConfiguration(minHeight: 50, maxHeight: 200), rows: RowsConfiguration(count: 500, height: 44))
        list.scrollTarget = .rows
        var paging = ContainerConfiguration(contentSize: Size(width: 800, height: 6000))
        paging.scrollTarget = .paging
        paging.physics = ScrollPhysics(profile: .none)
        plain.physics.wheelAnimation = .none
        // The largest and smallest lengths accepted (10⁹ and a fraction of a pixel), where a
        // quotient of lengths can overflow.
        let speck = ContainerConfiguration(containerSize: Size(width: 1e9, height: 1e9), contentSize: Size(width: 1e-300, height: 1e-300), axes: .both)
        var vast = ContainerConfiguration(
            containerSize: Size(width: 1e-300, height: 1e-300), contentSize: Size(width: 1e9, height: 1e9),
            contentInsets: EdgeInsets(top: 1e9, leading: 1e-300, bottom: 1e9, trailing: 1e9), axes: .both,
            header: HeaderConfiguration(minHeight: 1e-300, maxHeight: 1e9)
        )
        vast.physics.wheelAnimation = .smooth
        return [ContainerConfiguration(), plain, zero, small, both, list, paging, speck, vast]
    }()

    /// Turns one random integer into a short gesture, so that shrinking removes whole gestures.
    static func gesture(_ n: Int, at time: inout Timestamp) -> [ScrollEvent] {
        let magnitude = Double((n >> 4) % 200_001) - 100_000  // ±100000, huge deltas included
        let small = Double((n >> 4) % 401) - 200
        var events: [ScrollEvent] = []
        func next(_ gap: Timestamp) -> Timestamp { time += gap; return time }
        switch n % 8 {
        case 0:
            events.append(ScrollEvent(time: next(10_000), device: 1, kind: .wheel(v120: AxisValues(x: small, y: magnitude / 10), degrees: nil)))
        case 1:
            for _ in 0..<4 { events.append(ScrollEvent(time: next(8_000), device: 1, kind: .wheel(v120: AxisValues(y: small), degrees: nil))) }
        case 2, 3:
            for i in 0..<6 {
                let d = i.isMultiple(of: 2) ? small : magnitude / 100
                events.append(ScrollEvent(time: next(7_000), device: 2, kind: .finger(AxisValues(x: d / 3, y: d))))
            }
            events.append(ScrollEvent(time: next(Timestamp((n >> 8) % 100_000)), device: 2, kind: .finger(AxisValues(x: 0, y: 0))))
        case 4:
            events.append(ScrollEvent(time: next(5_000), device: 2, kind: .holdBegin(fingers: 2)))
            events.append(ScrollEvent(time: next(Timestamp((n >> 6) % 400_000)), device: 2, kind: .holdEnd(fingers: 2, cancelled: n & 32 != 0)))
        case 5:
            events.append(ScrollEvent(time: next(7_000), device: 3, kind: .continuous(AxisValues(y: magnitude))))
            events.append(ScrollEvent(time: next(7_000), device: 3, kind: .continuous(AxisValues(y: 0))))
        case 6:
            // A device vanishing mid-drag ends the drag.
            events.append(ScrollEvent(time: next(7_000), device: 4, kind: .finger(AxisValues(y: magnitude / 50))))
            events.append(ScrollEvent(time: next(7_000), device: 4, kind: .finger(AxisValues(y: magnitude / 50))))
            events.append(ScrollEvent(time: next(3_000), device: 4, kind: .deviceRemoved))
        default:
            _ = next(Timestamp((n >> 4) % 2_000_000))  // quiet time, motion runs on
        }
        return events
    }

    static func run(_ configuration: ContainerConfiguration, _ seeds: [Int]) -> (states: [ScrollState], final: ScrollContainer, engine: ScrollEngine) {
        var engine = ScrollEngine()
        engine.add(ScrollContainer(name: "main", configuration: configuration))
        var states: [ScrollState] = []
        var time: Timestamp = 1_000_000
        for seed in seeds {
            for event in gesture(seed, at: &time) {
                engine.handle(event) { states.append($0.state) }
            }
        }
        // Quiet time: let every motion end (bounded: a bug must fail, not hang).
        var ticks = 0
        while let next = engine.nextDeadline, ticks < 100_000 {
            engine.advance(to: next) { states.append($0.state) }
            ticks += 1
        }
        return (states, engine[0], engine)
    }

    @Test func afterQuietTimeEveryContainerRestsInsideItsRangeAndIdle() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...(Self.configurations.count - 1)), Gen.int(in: 0...Int(Int32.max)).array(of: 1...25)) { which, seeds in
            let (states, container, engine) = Self.run(Self.configurations[which], seeds)
            #expect(engine.nextDeadline == nil)
            let final = container.state
            #expect(final.phase == .idle)
            for axis in Axis.allCases where container.configuration.axes.contains(axis) {
                #expect(container.range(axis).contains(final.contentOffset[axis]))
            }
            #expect(final.velocity == .zero)
            #expect(states.allSatisfy { $0.isFinite })
        }
    }

    /// Deltas no device makes (a hand-written log's 1e308) count as ±1e6 px: every state stays
    /// finite and the motion ends inside the range (a user trial got infinity and NaN written
    /// as numbers, then 600 s of motion).
    @Test func absurdDeltasKeepEveryStateFinite() {
        for configuration in Self.configurations {
            var engine = ScrollEngine()
            engine.add(ScrollContainer(name: "main", configuration: configuration))
            var states: [ScrollState] = []
            let events: [ScrollEvent] = [
                ScrollEvent(time: 1_000, device: 1, kind: .finger(AxisValues(x: -1e308, y: 1e308))),
                ScrollEvent(time: 1_001, device: 1, kind: .finger(AxisValues(x: -.greatestFiniteMagnitude, y: 1e308))),
                ScrollEvent(time: 2_000, device: 1, kind: .finger(AxisValues(x: 0, y: 0))),
                ScrollEvent(time: 3_000_000, device: 2, kind: .continuous(AxisValues(y: -1e308))),
                ScrollEvent(time: 3_000_001, device: 2, kind: .continuous(AxisValues(y: 0))),
            ]
            for event in events { engine.handle(event) { states.append($0.state) } }
            var ticks = 0
            while let next = engine.nextDeadline, ticks < 100_000 {
                engine.advance(to: next) { states.append($0.state) }
                ticks += 1
            }
            #expect(engine.nextDeadline == nil)
            #expect(states.allSatisfy { $0.isFinite })
            let container = engine[0]
            #expect(container.state.phase == .idle)
            for axis in Axis.allCases where container.configuration.axes.contains(axis) {
                #expect(container.range(axis).contains(container.state.contentOffset[axis]))
            }
        }
    }

    @Test func theSameInputAlwaysGivesTheSameStates() async {
        await propertyCheck(count: 50, input: Gen.int(in: 0...(Self.configurations.count - 1)), Gen.int(in: 0...Int(Int32.max)).array(of: 1...25)) { which, seeds in
            let a = Self.run(Self.configurations[which], seeds).states
            let b = Self.run(Self.configurations[which], seeds).states
            #expect(a == b)
        }
    }
}
