@testable import ScrollModel
import Testing

/// docs/design.md §22 "Bounce based on size": an axis whose content does not overflow takes no
/// input (nothing moves or rubber-bands, no state), and routing hands that input to the parent.
@Suite("Bounce based on size")
struct BounceBasedOnSizeTests {
    static func list(height: Double, bounce: BounceBehavior) -> ContainerConfiguration {
        var configuration = ContainerConfiguration(contentSize: Size(width: 800, height: height))
        configuration.gestures.bounce = bounce
        return configuration
    }

    /// b(50) with c = 0.55, d = 600: `50·600·0.55 / (600 + 0.55·50)`.
    static let band50 = 50.0 * 600 * 0.55 / (600 + 0.55 * 50)

    /// Content shorter than and as long as the container: no state, no movement, for fingers and
    /// wheels, pulling either way; with `always` the same drag rubber-bands.
    @Test(arguments: [400.0, 600.0])
    func contentThatFitsTakesNoInput(height: Double) {
        var h = Harness(Self.list(height: height, bounce: .basedOnSize))
        h.send(.finger(0, y: 50), .finger(10_000, y: -80), .stop(20_000), .wheel(30_000, y: 120), .wheel(40_000, y: -120))
        h.settle()
        #expect(h.published.isEmpty)
        #expect(h.state.contentOffset == Point(x: 0, y: 0))
        #expect(h.state.phase == .idle)

        var always = Harness(Self.list(height: height, bounce: .always))
        always.send(.finger(0, y: 50))
        #expect(always.published.count == 1)
        expectClose(always.state.contentOffset.y, Self.band50, tolerance: 1e-9)
    }

    /// Content longer than the container scrolls (and rubber-bands at its ends) as always.
    @Test func contentLongerThanTheContainerScrolls() {
        var h = Harness(Self.list(height: 1000, bounce: .basedOnSize))
        h.send(.finger(0, y: 50))
        #expect(h.state.contentOffset.y == 50)
        h.send(.finger(10_000, y: 400))
        // r = 450 is 50 beyond hi = 400.
        expectClose(h.state.contentOffset.y, 400 + Self.band50, tolerance: 1e-9)
        #expect(h.published.count == 2)
    }

    /// Per axis: a two-axis container whose content overflows one way only moves along that
    /// axis, and never rubber-bands the other.
    @Test(arguments: [(Size(width: 800, height: 1000), Axis.vertical), (Size(width: 1200, height: 600), Axis.horizontal)])
    func eachAxisOnItsOwn(content: Size, overflowing: Axis) {
        var configuration = ContainerConfiguration(contentSize: content, axes: .both)
        configuration.gestures.bounce = .basedOnSize
        var h = Harness(configuration)
        h.send(.finger(0, y: 30, x: 20))
        let moved = overflowing == .vertical ? Point(x: 0, y: 30) : Point(x: 20, y: 0)
        #expect(h.state.contentOffset == moved)
        // Input along the axis that fits alone publishes nothing.
        let before = h.published.count
        h.send(overflowing == .vertical ? .finger(10_000, x: 25) : .finger(10_000, y: 25))
        #expect(h.published.count == before)
        #expect(h.state.contentOffset == moved)
        #expect(h.container.takesInput(overflowing))
        #expect(!h.container.takesInput(overflowing == .vertical ? .horizontal : .vertical))
    }

    /// docs/design.md §14: a focused child that fits hands its input to its parent. With
    /// `always` and `overscroll = contain` the child keeps the gesture and rubber-bands; with
    /// `basedOnSize` its axis is one it does not scroll, and the parent moves.
    @Test(arguments: [BounceBehavior.always, .basedOnSize])
    func theChainHandsInputThatFitsToTheParent(bounce: BounceBehavior) {
        var engine = ScrollEngine()
        engine.add(ScrollContainer(name: "outer", configuration: ContainerConfiguration(contentSize: Size(width: 800, height: 5000))))
        var inner = Self.list(height: 300, bounce: bounce)
        inner.containerSize = Size(width: 800, height: 400)
        inner.parent = "outer"
        inner.overscroll = .contain
        engine.add(ScrollContainer(name: "inner", configuration: inner))
        engine.setFocus(1)
        var published: [ScrollEngine.Update] = []
        engine.handle(.finger(0, y: 30)) { published.append($0) }
        if bounce == .basedOnSize {
            #expect(published.map(\.container) == [0])
            #expect(engine[0].state.contentOffset.y == 30)
            #expect(engine[1].state.contentOffset.y == 0)
        } else {
            #expect(published.map(\.container) == [1])
            #expect(engine[0].state.contentOffset.y == 0)
            // b(30) with d = 400.
            expectClose(engine[1].state.contentOffset.y, 30.0 * 400 * 0.55 / (400 + 0.55 * 30), tolerance: 1e-9)
        }
    }
}
