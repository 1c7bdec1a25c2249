@testable import ScrollModel
import Testing

/// docs/design.md §23 in the engine: a desktop's natural scrolling and scroll factor, by device
/// class or name, beneath the configuration's keys; reduced motion in a container.
@Suite("The desktop's settings")
struct DesktopInputTests {
    static let desktop = DesktopInput(rules: [
        .init(devices: .touchpads, naturalScrolling: true, scrollFactor: 1.5, source: "desktop:kde"),
        .init(devices: .mice, scrollFactor: 2, source: "desktop:kde"),
        .init(devices: .named("Logitech USB Mouse"), naturalScrolling: true, source: "desktop:sway"),
    ])

    func harness(_ rules: [InputShapingRules.Rule] = []) -> Harness {
        var physics = ScrollPhysics()
        physics.wheelAnimation = .none
        physics.wheelStep = .points(40)
        var h = Harness(ContainerConfiguration(physics: physics))
        h.engine.setShapingRules(InputShapingRules(rules, desktop: Self.desktop))
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 5000), animation: .none, at: 0) }
        h.send(
            ScrollEvent(time: 0, device: 1, kind: .deviceAdded(name: "Logitech USB Mouse", capabilities: [.wheel])),
            ScrollEvent(time: 0, device: 2, kind: .deviceAdded(name: "SynPS/2 Synaptics TouchPad", capabilities: [.finger, .hold])),
            ScrollEvent(time: 0, device: 3, kind: .deviceAdded(name: "Generic Mouse", capabilities: [.wheel]))
        )
        return h
    }

    /// A touchpad's deltas reversed and times 1.5; the mouse named reversed, times its class's
    /// 2; the other mouse only faster.
    @Test func naturalScrollingAndTheScrollFactorShapeEachDevice() {
        var h = harness()
        h.send(.finger(1_000_000, y: 10), .stop(1_300_000))
        #expect(h.state.contentOffset.y == 5000 - 15)
        h.send(.wheel(2_000_000, y: 120, dev: 1))
        #expect(h.state.contentOffset.y == 5000 - 15 - 80)
        h.send(.wheel(3_000_000, y: 120, dev: 3))
        #expect(h.state.contentOffset.y == 5000 - 15 - 80 + 80)
    }

    /// A configuration key wins on its device: `natural_scrolling` (libinput's, so nothing is
    /// reversed here) and `speed`.
    @Test func theConfigurationsKeysWin() {
        var h = harness([.init(match: "TouchPad", speed: 3, naturalScrolling: false)])
        h.send(.finger(1_000_000, y: 10), .stop(1_300_000))
        #expect(h.state.contentOffset.y == 5000 + 30)
        #expect(h.engine.shaping(forDevice: 2) == InputShaping(speedX: 3, speedY: 3))
        #expect(h.engine.shaping(forDevice: 1) == InputShaping(speedX: 2, speedY: 2, natural: true))
    }

    /// A device never announced has no class and no name: nothing of the desktop applies.
    @Test func anUnannouncedDeviceIsLeftAlone() {
        var h = harness()
        #expect(h.engine.shaping(forDevice: 9) == InputShaping())
        h.send(.finger(1_000_000, y: 10, dev: 9), .stop(1_300_000, dev: 9))
        #expect(h.state.contentOffset.y == 5010)
    }

    static func reduced(_ header: HeaderConfiguration? = nil) -> ContainerConfiguration {
        var physics = ScrollPhysics()
        physics.reducedMotion = true
        return ContainerConfiguration(header: header, physics: physics)
    }

    /// Reduced motion: a smooth `scrollTo` and a smooth wheel step land at once.
    @Test func reducedMotionMakesProgrammaticAndWheelMotionJump() {
        var h = Harness(Self.reduced())
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 700), animation: .spring(.smooth), at: 0) }
        #expect(h.state.contentOffset.y == 700)
        #expect(h.state.phase == .idle)
        h.send(.wheel(1_000_000, y: 120))
        #expect(h.state.contentOffset.y == 700 + ScrollPhysics().wheelStep(forLength: 600))
        #expect(h.container.motionY == nil)
    }

    /// Reduced motion: the header snaps at once, and a drag still flings (momentum is direct
    /// manipulation).
    @Test func reducedMotionSnapsTheHeaderAtOnceAndKeepsMomentum() {
        var h = Harness(Self.reduced(HeaderConfiguration(minHeight: 20, maxHeight: 100, snap: true, mode: .enterAlways)))
        _ = h.engine.update(container: 0, at: 0) { $0.scroll(to: AxisValues(y: 1200), animation: .none, at: 0) }
        h.send(.finger(10_000, y: -30), .stop(210_000))
        #expect(h.state.phase == .idle)
        #expect(h.state.contentOffset.y == 1200)
        var fling = Harness(Self.reduced())
        fling.send(.finger(0, y: 20), .finger(10_000, y: 20), .finger(20_000, y: 20), .stop(20_000))
        #expect(fling.state.phase == .decelerating)
    }
}
