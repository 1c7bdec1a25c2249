@testable import ScrollModel
import Testing

/// docs/design.md §14 in the model: the focus, chains of nested containers, latching, overscroll.
@Suite("Routing: focus and nested containers")
struct RoutingTests {
    /// A nested set of containers under one engine, with every update collected per container.
    struct Nest {
        var engine = ScrollEngine()
        var published: [ScrollEngine.Update] = []

        @discardableResult
        mutating func add(_ name: String, _ configuration: ContainerConfiguration) -> Int {
            // Without the indicators' linger, as the model's `Harness` (Support.swift) says why.
            var configuration = configuration
            configuration.gestures.indicatorLingerMilliseconds = 0
            return engine.add(ScrollContainer(name: name, configuration: configuration, at: 0))
        }

        mutating func send(_ events: ScrollEvent...) {
            for event in events { engine.handle(event) { published.append($0) } }
        }

        mutating func settle() {
            var ticks = 0
            while let next = engine.nextDeadline, ticks < 100_000 {
                engine.advance(to: next) { published.append($0) }
                ticks += 1
            }
        }

        mutating func scroll(_ index: Int, to y: Double? = nil, x: Double? = nil) {
            let time = engine.now
            _ = engine.update(container: index, at: time) { $0.scroll(to: AxisValues(x: x, y: y), animation: .none, at: time) }
        }

        /// The updates of container `index` published since `start` (a count of `published`).
        func updates(of index: Int, since start: Int = 0) -> [ScrollEngine.Update] {
            published[start...].filter { $0.container == index }
        }

        func offset(_ index: Int) -> Point { engine[index].state.contentOffset }
    }

    static func instant(_ configuration: ContainerConfiguration) -> ContainerConfiguration {
        var configuration = configuration
        configuration.physics.wheelAnimation = .none
        return configuration
    }

    /// A vertical list (800 × 600 showing 3000) with a horizontal carousel (800 × 200 showing
    /// 2400) in it; wheels jump, so values are exact at once.
    static func listOfCarousels() -> Nest {
        var nest = Nest()
        nest.add("list", instant(ContainerConfiguration(contentSize: Size(width: 800, height: 3000))))
        nest.add("carousel", instant(ContainerConfiguration(
            containerSize: Size(width: 800, height: 200), contentSize: Size(width: 2400, height: 200), axes: .horizontal, parent: "list"
        )))
        nest.engine.setFocus(1)
        return nest
    }

    /// A vertical child (800 × 300 showing 600) in a vertical parent (800 × 600 showing 3000).
    static func verticalPair(_ overscroll: OverscrollBehavior) -> Nest {
        var nest = Nest()
        nest.add("parent", ContainerConfiguration(contentSize: Size(width: 800, height: 3000)))
        nest.add("child", ContainerConfiguration(
            containerSize: Size(width: 800, height: 300), contentSize: Size(width: 800, height: 600), parent: "parent", overscroll: overscroll
        ))
        nest.engine.setFocus(1)
        return nest
    }

    @Test func sidewaysInputMovesTheCarouselAndUpDownTheList() {
        var nest = Self.listOfCarousels()
        nest.send(.wheel(1_000_000, x: 120))
        // One detent of the carousel's own step, 800^(2/3); the list hears nothing.
        expectClose(nest.offset(1).x, 86.177)
        #expect(nest.updates(of: 0).isEmpty)
        #expect(nest.updates(of: 1).count == 1)
        nest.send(.wheel(1_100_000, y: 240))
        expectClose(nest.offset(0).y, 2 * 71.138)
        #expect(nest.updates(of: 1).count == 1)
        #expect(nest.offset(1).y == 0)
        // Finger input too: sideways to the carousel, up/down to the list.
        let start = nest.published.count
        nest.send(.finger(2_000_000, x: 25), .finger(2_010_000, x: 25), .stop(2_020_000))
        // (The wheels' idle timers fire first.) The list hears only the stop's y = 0.
        #expect(nest.updates(of: 0, since: start).filter { $0.cause == .input }.count == 1)
        #expect(nest.updates(of: 1, since: start).filter { $0.cause == .input }.count == 3)
        expectClose(nest.offset(1).x, 86.177 + 50)
    }

    @Test func aDiagonalDragMovesEachAlongItsOwnAxis() {
        var nest = Self.listOfCarousels()
        nest.send(.finger(1_000_000, y: 5, x: 10), .finger(1_010_000, y: 5, x: 10), .finger(1_020_000, y: 5, x: 10))
        #expect(nest.updates(of: 0).map(\.state.contentOffset.y) == [5, 10, 15])
        #expect(nest.updates(of: 1).map(\.state.contentOffset.x) == [10, 20, 30])
        #expect(nest.offset(0).x == 0 && nest.offset(1).y == 0)
        nest.send(.stop(1_030_000))
        // Each releases with its own samples: 15 px and 30 px over 0.03 s.
        #expect(nest.engine[0].state.phase == .decelerating)
        #expect(nest.engine[1].state.phase == .decelerating)
        expectClose(nest.engine[0].state.velocity.y, 500)
        expectClose(nest.engine[1].state.velocity.x, 1000)
        #expect(nest.engine[0].state.velocity.x == 0 && nest.engine[1].state.velocity.y == 0)
    }

    /// b(x) = x·d·c / (d + c·x), docs/design.md §5.
    static func band(_ x: Double, d: Double, c: Double = 0.55) -> Double { x * d * c / (d + c * x) }

    @Test(arguments: [OverscrollBehavior.auto, .contain, .none])
    func aNewGestureAtTheChildsEdge(_ overscroll: OverscrollBehavior) {
        var nest = Self.verticalPair(overscroll)
        nest.scroll(1, to: 300)  // the child's bottom edge, hi = 600 − 300
        nest.send(.finger(1_000_000, y: 10), .finger(1_010_000, y: 10))
        switch overscroll {
        case .auto:
            // The child rests at the edge the gesture pushes towards: the parent moves.
            #expect(nest.offset(0).y == 20)
            #expect(nest.offset(1).y == 300)
            #expect(nest.updates(of: 1).isEmpty)
        case .contain:
            // The child keeps it and rubber-bands with its own height.
            expectClose(nest.offset(1).y, 300 + Self.band(20, d: 300), tolerance: 1e-9)
            #expect(nest.offset(0).y == 0)
            #expect(nest.updates(of: 0).isEmpty)
        case .none:
            // Stops dead: no overscroll, nothing chains.
            #expect(nest.offset(1).y == 300)
            #expect(nest.offset(0).y == 0)
            #expect(nest.updates(of: 0).isEmpty)
        }
        nest.send(.stop(1_020_000))
        nest.settle()
        #expect(nest.offset(1).y == 300)
    }

    @Test func aGestureThatStartedInTheChildStaysThereToItsEndItsFlingToo() {
        var nest = Self.verticalPair(.auto)
        nest.scroll(1, to: 290)
        // 10 px from the edge: the child takes the drag and keeps it past its edge.
        nest.send(.finger(1_000_000, y: 5), .finger(1_010_000, y: 5), .finger(1_020_000, y: 5), .finger(1_030_000, y: 5))
        expectClose(nest.offset(1).y, 300 + Self.band(10, d: 300), tolerance: 1e-9)
        #expect(nest.updates(of: 0).isEmpty)
        nest.send(.stop(1_040_000))
        nest.settle()
        #expect(nest.offset(1).y == 300)
        #expect(nest.updates(of: 0).isEmpty)

        // A fast drag from the top: the fling runs past the child's edge and bounces there.
        nest.scroll(1, to: 0)
        let start = nest.published.count
        for i in 0..<5 { nest.send(.finger(2_000_000 + Timestamp(i) * 10_000, y: 20)) }
        nest.send(.stop(2_050_000))
        #expect(nest.engine[1].state.phase == .decelerating)
        expectClose(nest.engine[1].state.velocity.y, 2000)
        nest.settle()
        #expect(nest.offset(1).y == 300)
        #expect(nest.updates(of: 0, since: start).isEmpty)
        // Now at rest at the edge, the next downward gesture goes to the parent.
        nest.send(.finger(3_000_000, y: 7), .stop(3_010_000))
        #expect(nest.offset(0).y == 7)
    }

    @Test func aWheelGestureLatchesUntilTheWheelIsIdle() {
        var nest = Self.verticalPair(.auto)
        nest.scroll(1, to: 300)
        nest.send(.wheel(1_000_000, y: 120))
        #expect(nest.updates(of: 0).count == 1 && nest.updates(of: 1).isEmpty)
        // Within wheel_idle (0.25 s) of that click the gesture stays with the parent, though
        // the child could move up: the parent's spring aims back at 0.
        nest.send(.wheel(1_200_000, y: -120))
        #expect(nest.updates(of: 1).isEmpty)
        nest.settle()
        #expect(nest.offset(0).y == 0)
        // After it the wheel has gone idle: a click up latches anew, to the child, which moves
        // by its own step, 300^(2/3).
        nest.send(.wheel(2_000_000, y: -120))
        nest.settle()
        expectClose(nest.offset(1).y, 300 - 44.814)
        #expect(nest.offset(0).y == 0)
    }

    @Test func aGestureInProgressWhenTheFocusMovesEndsWhereItBegan() {
        var nest = Self.listOfCarousels()
        nest.add("second", Self.instant(ContainerConfiguration(
            containerSize: Size(width: 800, height: 200), contentSize: Size(width: 2400, height: 200), axes: .horizontal, parent: "list"
        )))
        nest.send(.finger(1_000_000, x: 10), .finger(1_010_000, x: 10))
        nest.engine.setFocus(2)
        nest.send(.finger(1_020_000, x: 10), .stop(1_030_000))
        // The drag stays with the first carousel to its stop, and it flings there.
        #expect(nest.offset(1).x == 30)
        #expect(nest.engine[1].state.phase == .decelerating)
        #expect(nest.updates(of: 2).isEmpty)
        // The next gesture goes to the newly focused carousel.
        nest.send(.finger(2_000_000, x: 10), .stop(2_010_000))
        #expect(nest.offset(2).x == 10)
    }

    @Test func pausedContainersAreSkipped() {
        var nest = Self.listOfCarousels()
        nest.engine.setPaused(true, container: 1)
        nest.send(.wheel(1_000_000, y: 120, x: 120))
        // The paused carousel is skipped: the list takes both axes (and ignores x, as alone).
        #expect(nest.updates(of: 1).isEmpty)
        #expect(nest.updates(of: 0).count == 1)
        expectClose(nest.offset(0).y, 71.138)
        nest.engine.setPaused(true, container: 0)
        nest.send(.wheel(1_100_000, y: 120))
        #expect(nest.published.count == 1)  // every candidate paused: the event is lost
    }

    @Test func aHoldStopsTheMotionTheLastGestureStarted() {
        var nest = Self.verticalPair(.auto)
        nest.scroll(1, to: 300)
        for i in 0..<5 { nest.send(.finger(1_000_000 + Timestamp(i) * 10_000, y: 20)) }
        nest.send(.stop(1_050_000))
        #expect(nest.engine[0].state.phase == .decelerating)
        let start = nest.published.count
        nest.send(ScrollEvent(time: 1_100_000, device: 2, kind: .holdBegin(fingers: 2)))
        #expect(nest.engine[0].state.phase == .tracking)
        #expect(nest.updates(of: 1, since: start).isEmpty)
        nest.send(ScrollEvent(time: 1_200_000, device: 2, kind: .holdEnd(fingers: 2, cancelled: false)))
        #expect(nest.engine[0].state.phase == .idle)
        #expect(nest.updates(of: 1, since: start).isEmpty)
    }

    @Test func withoutAFocusOnlyContainersWithoutAParentGetInput() {
        var nest = Self.listOfCarousels()
        nest.engine.setFocus(nil)
        nest.add("side", Self.instant(ContainerConfiguration()))
        nest.send(.wheel(1_000_000, y: 120, x: 120))
        #expect(nest.updates(of: 1).isEmpty)
        #expect(nest.updates(of: 0).count == 1 && nest.updates(of: 2).count == 1)
    }

    @Test func aContainerBoundToADeviceKeepsItsInputWhateverTheFocus() {
        var nest = Self.listOfCarousels()
        nest.add("knob", Self.instant(ContainerConfiguration(devices: ["Knob"])))
        nest.send(ScrollEvent(time: 500_000, device: 7, kind: .deviceAdded(name: "Knob", capabilities: .wheel)))
        nest.send(.wheel(1_000_000, y: 120, dev: 7))
        #expect(nest.updates(of: 2).count == 1)
        #expect(nest.updates(of: 0).isEmpty && nest.updates(of: 1).isEmpty)
        nest.send(.wheel(1_100_000, y: 120, dev: 1))
        #expect(nest.updates(of: 2).count == 1)
        #expect(nest.updates(of: 0).count == 1)
    }

    @Test func theFocusClearsWithItsContainerAndFollowsRemovals() {
        var nest = Self.listOfCarousels()
        nest.add("other", ContainerConfiguration())
        nest.engine.setFocus(2)
        nest.engine.remove(container: 1)
        #expect(nest.engine.focus == 1)  // "other" moved down one place
        nest.engine.remove(container: 1)
        #expect(nest.engine.focus == nil)
    }

    @Test func parentsResolveByNameAndEndAtOneThatIsGone() {
        var nest = Self.listOfCarousels()
        #expect(nest.engine.router.parents == [-1, 0])
        nest.engine.remove(container: 0)
        #expect(nest.engine.router.parents == [-1])
        #expect(!nest.engine.router.hasNesting)
        nest.add("list", ContainerConfiguration())
        #expect(nest.engine.router.parents == [1, -1])
    }
}
