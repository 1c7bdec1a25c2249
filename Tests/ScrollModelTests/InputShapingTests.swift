@testable import ScrollModel
import Testing

/// docs/design.md §18 in the engine: each device's events shaped once, before routing, from its
/// name.
@Suite("Input shaping per device")
struct InputShapingTests {
    static let rules = InputShapingRules([
        .init(match: "Mouse", speed: 2, wheelAcceleration: 3),
        .init(match: "TouchPad", speedY: 0.5, momentum: false),
        .init(match: "PowerMate", detent: true),
    ])

    static func added(_ dev: Int, _ name: String) -> ScrollEvent {
        ScrollEvent(time: 0, device: dev, kind: .deviceAdded(name: name, capabilities: [.wheel]))
    }

    static func physics(step: Double = 40) -> ScrollPhysics {
        var physics = ScrollPhysics()
        physics.wheelAnimation = .none
        physics.wheelStep = .points(step)
        return physics
    }

    func harness(_ configuration: ContainerConfiguration = ContainerConfiguration(physics: physics())) -> Harness {
        var h = Harness(configuration)
        h.engine.setShapingRules(Self.rules)
        h.send(Self.added(1, "Logitech USB Mouse"), Self.added(2, "SynPS/2 Synaptics TouchPad"), Self.added(4, "Griffin PowerMate"))
        return h
    }

    @Test func accelerationFactorFollowsTheFormula() {
        let shaping = InputShaping(wheelAcceleration: 3)
        let expected: Double = 1 + (3 - 1) * (1 - 30.0 / 100)
        #expect(shaping.accelerationFactor(afterMilliseconds: 30) == expected)
        #expect(shaping.accelerationFactor(afterMilliseconds: 0) == 3)
        #expect(shaping.accelerationFactor(afterMilliseconds: 100) == 1)
        #expect(shaping.accelerationFactor(afterMilliseconds: 150) == 1)
        #expect(InputShaping().accelerationFactor(afterMilliseconds: 10) == 1)
    }

    @Test func speedAndAccelerationPerDevice() {
        var h = harness()
        h.send(.wheel(1_000_000, y: 120), .wheel(1_030_000, y: 120), .wheel(1_060_000, y: -120))
        let f = 1 + (3.0 - 1) * (1 - 30.0 / 100)
        let y1 = (120 * 2.0) / 120 * 40
        let y2 = y1 + (120 * 2 * f) / 120 * 40
        #expect(h.published.map(\.state.contentOffset.y) == [y1, y2, y2 - 80])
        // A wheel event from another device 30 ms later is not accelerated by this one's.
        h.send(.wheel(1_090_000, y: -120, dev: 3))
        #expect(h.state.contentOffset.y == y2 - 80 - 40)
    }

    @Test func momentumFalseReleasesWithoutAFling() {
        var h = harness(ContainerConfiguration())
        h.send(.finger(1_000_000, y: 20), .finger(1_010_000, y: 20), .finger(1_020_000, y: 20), .stop(1_030_000))
        #expect(h.state.phase == .idle)
        #expect(h.state.contentOffset.y == 30)
        #expect(h.state.velocity.y == 0)
        #expect(!h.engine.slots[0].container.isMoving)
        // The same drag from an unknown device (no rule) flings.
        h.send(.finger(2_000_000, y: 20, dev: 5), .finger(2_010_000, y: 20, dev: 5), .finger(2_020_000, y: 20, dev: 5), .stop(2_030_000, dev: 5))
        #expect(h.state.phase == .decelerating)
    }

    @Test func momentumFalseAimsAtTheScrollTargetFromTheReleasePosition() {
        var config = ContainerConfiguration(rows: RowsConfiguration(count: 100, height: 44), scrollTarget: .rows)
        config.contentSize = nil
        var h = harness(config)
        // 2 × (40 × 0.5) = 40: the nearest row top is 44, aimed at along the smooth spring.
        h.send(.finger(1_000_000, y: 40), .finger(1_010_000, y: 40), .stop(1_020_000))
        #expect(h.state.contentOffset.y == 40)
        #expect(h.state.phase == .decelerating)
        h.settle()
        #expect(h.state.contentOffset.y == 44)
    }

    @Test func detentCountsPerAxisAndRestartsOnADirectionChange() {
        var config = ContainerConfiguration(rows: RowsConfiguration(count: 100, height: 44), physics: Self.physics())
        config.contentSize = nil
        var h = harness(config)
        for i in 0..<12 { h.send(.wheel(1_000_000 + Timestamp(i) * 10_000, y: 30, dev: 4)) }
        #expect(h.published.map(\.state.contentOffset.y) == [0, 0, 0, 44, 44, 44, 44, 88, 88, 88, 88, 132])
        h.published = []
        for i in 0..<3 { h.send(.wheel(2_000_000 + Timestamp(i) * 10_000, y: 30, dev: 4)) }
        for i in 0..<4 { h.send(.wheel(3_000_000 + Timestamp(i) * 10_000, y: -30, dev: 4)) }
        // (The wheel's idle timer publishes once between the two runs.)
        #expect(h.published.map(\.state.contentOffset.y) == [132, 132, 132, 132, 132, 132, 132, 88])
        #expect(h.engine.shapers.first { $0.device == 4 }?.detentY == 0)
    }

    @Test func detentWithTwoContainersStepsEachOnce() {
        var h = Harness(ContainerConfiguration(physics: Self.physics(step: 40)))
        var rows = ContainerConfiguration(containerSize: Size(width: 400, height: 200), rows: RowsConfiguration(count: 10, height: 50), physics: Self.physics())
        rows.contentSize = nil
        h.engine.add(ScrollContainer(name: "list", configuration: rows))
        h.engine.setShapingRules(Self.rules)
        h.send(Self.added(4, "Griffin PowerMate"), .wheel(1_000_000, y: 60, dev: 4), .wheel(1_010_000, y: 60, dev: 4))
        #expect(h.engine[0].state.contentOffset.y == 40)
        #expect(h.engine[1].state.contentOffset.y == 50)
    }

    @Test func rowTopsAroundAnOffset() {
        let rows = RowLayout(RowsConfiguration(count: 3, height: 44), defaultTop: 10)
        #expect(rows.rowTop(after: 0) == 10)
        #expect(rows.rowTop(after: 10) == 54)
        #expect(rows.rowTop(after: 53.8) == 98)
        #expect(rows.rowTop(after: 120) == 142)
        #expect(rows.rowTop(after: 142) == nil)
        #expect(rows.rowTop(before: 54) == 10)
        #expect(rows.rowTop(before: 60) == 54)
        #expect(rows.rowTop(before: 10) == nil)
        #expect(rows.rowTop(before: 500) == 142)
    }

    /// New rules apply from each device's next event; its history stays.
    @Test func newRulesApplyFromTheNextEvent() {
        var h = harness()
        h.send(.wheel(1_000_000, y: 120))
        #expect(h.state.contentOffset.y == 80)
        h.engine.setShapingRules(InputShapingRules([.init(match: "Mouse", speed: 3)]))
        h.send(.wheel(2_000_000, y: 120))
        #expect(h.state.contentOffset.y == 80 + 120)
        #expect(h.engine.shaping(forDevice: 2) == InputShaping())
    }

    /// `source`: the device, name and kind of the last scroll event that reached the container.
    @Test func sourceObservation() throws {
        var h = harness()
        let source = try ScrollObservation(of: "source", options: [])
        #expect(h.engine.value(of: source, container: 0, in: h.state) == .null)
        h.send(.wheel(1_000_000, y: 120))
        #expect(h.engine.value(of: source, container: 0, in: h.state) == .source(InputOrigin(device: 1, name: "Logitech USB Mouse", kind: .wheel)))
        h.send(.finger(2_000_000, y: 5), ScrollEvent(time: 2_100_000, device: 2, kind: .holdBegin(fingers: 2)))
        #expect(h.container.value(of: source, in: h.state) == .source(InputOrigin(device: 2, name: "SynPS/2 Synaptics TouchPad", kind: .finger)))
        h.send(.finger(3_000_000, y: 5, dev: 9))
        #expect(h.container.value(of: source, in: h.state) == .source(InputOrigin(device: 9, name: nil, kind: .finger)))
        #expect(throws: ObservationError.self) { try ScrollObservation(of: "source", options: [("step", .integer(1))]) }
    }

    /// Only input that reaches the container counts: a paused container, or one bound to other
    /// devices, keeps the source it had.
    @Test func sourceIsTheInputThatReachedTheContainer() throws {
        var h = harness()
        var bound = ContainerConfiguration()
        bound.devices = ["SynPS/2 Synaptics TouchPad"]
        h.engine.add(ScrollContainer(name: "pad", configuration: bound))
        let source = try ScrollObservation(of: "source", options: [])
        h.send(.wheel(1_000_000, y: 120))
        #expect(h.engine.value(of: source, container: 1, in: h.engine[1].state) == .null)
        h.send(.finger(2_000_000, y: 5))
        let pad = ObservationValue.source(InputOrigin(device: 2, name: "SynPS/2 Synaptics TouchPad", kind: .finger))
        #expect(h.engine.value(of: source, container: 1, in: h.engine[1].state) == pad)
        h.engine.setPaused(true, container: 0)
        h.send(.wheel(3_000_000, y: 120))
        #expect(h.engine.value(of: source, container: 0, in: h.state) == pad)
    }
}
