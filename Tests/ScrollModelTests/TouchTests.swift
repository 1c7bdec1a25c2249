@testable import ScrollModel
import Testing

/// docs/design.md §25 in the model: where a touch goes, the slop, 1:1 dragging on both axes,
/// rubber band, fling on lift, a touch stopping a motion, a second finger, `touch_cancel`.
///
/// Scales and points are powers of two apart, so the formulas' values are exact doubles and
/// compared with `==` wherever the unit vector `u` is exact.
@Suite("Touchscreens")
struct TouchTests {
    /// Containers under one engine, with every update collected.
    struct Glass {
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

        mutating func run(until time: Timestamp) {
            engine.advance(to: time) { published.append($0) }
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

        func state(_ index: Int) -> ScrollState { engine[index].state }
        func offset(_ index: Int) -> Point { engine[index].state.contentOffset }
        func updates(of index: Int, since start: Int = 0) -> [ScrollEngine.Update] {
            published[start...].filter { $0.container == index }
        }
    }

    static func down(_ t: Timestamp, _ x: Double, _ y: Double, slot: Int = 0, dev: Int = 7) -> ScrollEvent {
        ScrollEvent(time: t, device: dev, kind: .touchDown(slot: slot, at: Point(x: x, y: y)))
    }

    static func motion(_ t: Timestamp, _ x: Double, _ y: Double, slot: Int = 0, dev: Int = 7) -> ScrollEvent {
        ScrollEvent(time: t, device: dev, kind: .touchMotion(slot: slot, at: Point(x: x, y: y)))
    }

    static func up(_ t: Timestamp, slot: Int = 0, dev: Int = 7) -> ScrollEvent {
        ScrollEvent(time: t, device: dev, kind: .touchUp(slot: slot))
    }

    static func cancel(_ t: Timestamp, slot: Int = 0, dev: Int = 7) -> ScrollEvent {
        ScrollEvent(time: t, device: dev, kind: .touchCancel(slot: slot))
    }

    /// A vertical list 800 × 512 showing 5000 px, on the top quarter of the left half of the
    /// glass: s = (800 / 0.5, 512 / 0.25) = (1600, 2048) px per unit, so 1/256 of the screen's
    /// height is 8 px, the default slop.
    static func list(axes: Axis.Set = .vertical) -> ContainerConfiguration {
        ContainerConfiguration(
            containerSize: Size(width: 800, height: 512), contentSize: Size(width: 3200, height: 5000), axes: axes,
            touchFrame: Rect(x: 0, y: 0, width: 0.5, height: 0.25)
        )
    }

    // MARK: Slop and 1:1

    @Test("Below the slop nothing moves; the first moved state lags the finger by exactly the slop")
    func slop() {
        var glass = Glass()
        glass.add("list", Self.list())
        glass.scroll(0, to: 1000)
        glass.send(Self.down(1_000, 0.25, 0.125))
        #expect(glass.state(0).phase == .tracking)
        // 1/256 of the glass is 8 px: exactly the slop, not beyond it.
        glass.send(Self.motion(2_000, 0.25, 0.125 - 1.0 / 256))
        #expect(glass.offset(0).y == 1000)
        #expect(glass.state(0).phase == .tracking)
        // Unchanged, but of the motion's time: the state it publishes says when.
        #expect(glass.state(0).time == 2_000)
        // 3/256 up is 24 px: past the slop, u = (0, −1); the content follows 24 − 8 = 16 px.
        glass.send(Self.motion(3_000, 0.25, 0.125 - 3.0 / 256))
        #expect(glass.offset(0).y == 1016)
        #expect(glass.state(0).phase == .interacting)
        // From then on 1:1, still 8 px behind: 5/256 is 40 px, 32 shown.
        glass.send(Self.motion(4_000, 0.25, 0.125 - 5.0 / 256))
        #expect(glass.offset(0).y == 1032)
        // And back down past the start: 40 px down the other way, u kept: 1000 − 40 − 8.
        glass.send(Self.motion(5_000, 0.25, 0.125 + 5.0 / 256))
        #expect(glass.offset(0).y == 952)
        #expect(glass.engine.touch?.direction == Point(x: 0, y: -1))
    }

    @Test("A move of exactly the slop does not start the drag: u is taken where it is exceeded")
    func slopIsExceededNotReached() {
        var glass = Glass()
        glass.add("list", Self.list())
        glass.scroll(0, to: 1000)
        glass.send(Self.down(0, 0.25, 0.125))
        // Exactly 8 px down (1/256 of the glass): not past the slop, no direction yet.
        glass.send(Self.motion(1_000, 0.25, 0.125 + 1.0 / 256))
        #expect(glass.engine.touch?.direction == nil)
        // Then sideways, level with the down point: u = (1, 0), so the list, which follows
        // only y, stays at 1000 − 0 + 8·0.
        glass.send(Self.motion(2_000, 0.25 + 24.0 / 1600, 0.125))
        #expect(glass.engine.touch?.direction == Point(x: 1, y: 0))
        #expect(glass.offset(0).y == 1000)
    }

    @Test("A sideways move past the slop counts (Euclidean), and the vertical list follows only its axis")
    func slopIsEuclidean() {
        var glass = Glass()
        glass.add("list", Self.list())
        glass.scroll(0, to: 1000)
        glass.send(Self.down(0, 0.25, 0.125))
        // 10 px right (10/1600 of the width) and 0 vertically: past the slop, u = (1, 0).
        glass.send(Self.motion(1_000, 0.25 + 10.0 / 1600, 0.125))
        #expect(glass.engine.touch?.direction == Point(x: 1, y: 0))
        #expect(glass.offset(0) == Point(x: 0, y: 1000))
        // Then 16 px up: y = 1000 + 16 − 8·0 (the lag lies along u, across this axis).
        glass.send(Self.motion(2_000, 0.25 + 10.0 / 1600, 0.125 - 16.0 / 2048))
        #expect(glass.offset(0).y == 1016)
    }

    @Test("1:1 on both axes with a frame not shaped like the container: per-axis scales")
    func bothAxes() {
        var glass = Glass()
        // 1024 × 512 on a square quarter of the glass: s = (4096, 2048).
        glass.add("map", ContainerConfiguration(
            containerSize: Size(width: 1024, height: 512), contentSize: Size(width: 4096, height: 4096), axes: .both,
            touchFrame: Rect(x: 0.5, y: 0.5, width: 0.25, height: 0.25)
        ))
        glass.scroll(0, to: 1000, x: 1000)
        let start = Point(x: 0.625, y: 0.625)
        glass.send(Self.down(0, start.x, start.y))
        // s·ΔP = (−30, −40): 50 px, u = (−0.6, −0.8).
        glass.send(Self.motion(8_000, start.x - 30.0 / 4096, start.y - 40.0 / 2048))
        let u = Point(x: -30.0 / 50, y: -40.0 / 50)
        expectClose(glass.offset(0).x, 1000 + 30 + 8 * u.x, tolerance: 1e-9)
        expectClose(glass.offset(0).y, 1000 + 40 + 8 * u.y, tolerance: 1e-9)
        // Further on: (−130, −140) px; the lag stays 8·u.
        glass.send(Self.motion(16_000, start.x - 130.0 / 4096, start.y - 140.0 / 2048))
        expectClose(glass.offset(0).x, 1000 + 130 + 8 * u.x, tolerance: 1e-9)
        expectClose(glass.offset(0).y, 1000 + 140 + 8 * u.y, tolerance: 1e-9)
    }

    @Test("Beyond an edge the drag rubber-bands as a finger drag does")
    func rubberBand() {
        var glass = Glass()
        glass.add("list", Self.list())
        glass.send(Self.down(0, 0.25, 0.0625))
        // A quarter of the glass down is 512 px: raw = 0 − 512 + 8 = −504.
        glass.send(Self.motion(10_000, 0.25, 0.0625 + 512.0 / 2048))
        let band = RubberBand(coefficient: 0.55, dimension: 512)
        expectClose(glass.offset(0).y, -band.band(504), tolerance: 1e-9)
        #expect(glass.offset(0).y > -504)
        // Lifted beyond the edge: it bounces back, and rests at 0.
        glass.send(Self.up(20_000))
        #expect(glass.state(0).phase == .decelerating)
        glass.settle()
        #expect(glass.offset(0).y == 0)
        #expect(glass.state(0).phase == .idle)
    }

    // MARK: Lift

    @Test("Fling on lift equals a finger release with the same samples")
    func flingEqualsFingerRelease() {
        // The touch: down, then up the glass 8/2048 px per 8 ms after crossing the slop.
        var touch = Glass()
        touch.add("list", Self.list())
        touch.scroll(0, to: 1000)
        touch.send(Self.down(100_000, 0.25, 0.2))
        var offsets: [Double] = [1000]
        for k in 1...8 {
            touch.send(Self.motion(100_000 + Timestamp(k) * 8_000, 0.25, 0.2 - Double(k * 16) / 2048))
            offsets.append(touch.offset(0).y)
        }
        touch.send(Self.up(172_000))
        let afterLift = touch.published.count
        #expect(touch.state(0).phase == .decelerating)
        touch.settle()

        // The finger: the same offsets as deltas, and a scroll stop at the lift.
        var finger = Glass()
        finger.add("list", Self.list())
        finger.scroll(0, to: 1000)
        finger.send(ScrollEvent(time: 100_000, device: 2, kind: .holdBegin(fingers: 2)))
        for k in 1...8 where offsets[k] != offsets[k - 1] {
            finger.send(.finger(100_000 + Timestamp(k) * 8_000, y: offsets[k] - offsets[k - 1]))
            #expect(finger.offset(0).y == offsets[k])
        }
        finger.send(.stop(172_000))
        let fingerAfterLift = finger.published.count
        finger.settle()

        // The first crossing moves 16 − 8 = 8 px, then 16 px per event.
        #expect(offsets[1] == 1008 && offsets[8] == 1120)
        // §5's tracker: 120 px over the samples of the last 150 ms (8 ms … 72 ms and the lift at 72 ms).
        let touchStates = touch.published[afterLift...].map(\.state)
        let fingerStates = finger.published[fingerAfterLift...].map(\.state)
        #expect(touchStates.count == fingerStates.count)
        #expect(touchStates.map(\.contentOffset) == fingerStates.map(\.contentOffset))
        #expect(touchStates.map(\.velocity) == fingerStates.map(\.velocity))
        #expect(touchStates.map(\.phase) == fingerStates.map(\.phase))
        // (120 − 8 + 8 … ): the samples are 8, 16 × 7 and the lift's 0 over 108 000 − 8 000 µs.
        let expected = (8.0 + 16 * 7) / 0.064
        #expect(touch.published[afterLift - 1].state.velocity.y == expected)
    }

    @Test("A touch stops a fling as a hold does; its lift without moving leaves it stopped")
    func touchStopsFling() {
        var glass = Glass()
        glass.add("list", Self.list())
        glass.scroll(0, to: 1000)
        for k in 1...5 { glass.send(.finger(Timestamp(k) * 10_000, y: 30)) }
        glass.send(.stop(60_000))
        #expect(glass.state(0).phase == .decelerating)
        glass.run(until: 100_000)
        let sampled = glass.engine.sampled(container: 0, at: 104_000)
        glass.send(Self.down(104_000, 0.25, 0.125))
        #expect(glass.state(0).phase == .tracking)
        #expect(glass.state(0).velocity == .zero)
        #expect(glass.offset(0) == sampled.contentOffset)
        // A wobble within the slop, then the lift: no fling.
        glass.send(Self.motion(110_000, 0.25, 0.125 + 2.0 / 2048))
        glass.send(Self.up(120_000))
        #expect(glass.state(0).phase == .idle)
        #expect(glass.offset(0) == sampled.contentOffset)
        #expect(glass.engine.isIdle)
    }

    @Test("touch_cancel ends a drag as a lift with zero velocity")
    func cancel() {
        var glass = Glass()
        glass.add("list", Self.list())
        glass.scroll(0, to: 1000)
        glass.send(Self.down(0, 0.25, 0.2))
        for k in 1...6 { glass.send(Self.motion(Timestamp(k) * 8_000, 0.25, 0.2 - Double(k * 32) / 2048)) }
        #expect(glass.state(0).velocity.y > 50)
        let offset = glass.offset(0)
        glass.send(Self.cancel(56_000))
        #expect(glass.state(0).phase == .idle)
        #expect(glass.state(0).velocity == .zero)
        #expect(glass.offset(0) == offset)
        #expect(glass.engine.isIdle)
        #expect(glass.engine.touch == nil)
    }

    // MARK: Where a touch goes

    @Test("A touch goes to the deepest container whose frame contains it, and stays there")
    func routingToDeepest() {
        var glass = Glass()
        // A page on the whole glass with a carousel across its middle.
        glass.add("page", ContainerConfiguration(
            containerSize: Size(width: 1024, height: 1024), contentSize: Size(width: 1024, height: 4096),
            touchFrame: Rect(x: 0, y: 0, width: 1, height: 1)
        ))
        glass.add("carousel", ContainerConfiguration(
            containerSize: Size(width: 1024, height: 256), contentSize: Size(width: 4096, height: 256), axes: .horizontal,
            parent: "page", overscroll: .contain, touchFrame: Rect(x: 0, y: 0.5, width: 1, height: 0.25)
        ))
        glass.scroll(1, x: 1000)
        // On the carousel: it takes the sideways drag (s = 1024), the page does not move.
        glass.send(Self.down(0, 0.5, 0.625))
        glass.send(Self.motion(8_000, 0.5 - 64.0 / 1024, 0.625))
        #expect(glass.offset(1).x == 1000 + 64 - 8)
        #expect(glass.offset(0).y == 0)
        // Moving off the carousel's frame keeps the touch there; its vertical part goes along
        // the chain to the page (§14), 384 px up the glass: 384 (the lag lies across, along u).
        glass.send(Self.motion(16_000, 0.5 - 64.0 / 1024, 0.25))
        #expect(glass.engine.touch?.entry == glass.engine.slots[1].id)
        #expect(glass.offset(1).x == 1000 + 64 - 8)
        #expect(glass.offset(0).y == 384)
        glass.send(Self.cancel(24_000))
        // Above the carousel: the page.
        glass.send(Self.down(30_000, 0.5, 0.25))
        glass.send(Self.motion(38_000, 0.5, 0.25 - 64.0 / 1024))
        #expect(glass.offset(0).y == 384 + 64 - 8)
        #expect(glass.offset(1).x == 1056)
        glass.send(Self.cancel(46_000))
    }

    @Test("Of containers side by side the one added last; containers without a frame get no touches")
    func routingOverlapAndFrameless() {
        var glass = Glass()
        glass.add("plain", ContainerConfiguration(containerSize: Size(width: 1024, height: 1024)))
        glass.add("under", ContainerConfiguration(containerSize: Size(width: 1024, height: 1024), touchFrame: Rect(x: 0, y: 0, width: 1, height: 1)))
        glass.add("over", ContainerConfiguration(containerSize: Size(width: 1024, height: 1024), touchFrame: Rect(x: 0, y: 0, width: 1, height: 1)))
        glass.send(Self.down(0, 0.5, 0.5))
        glass.send(Self.motion(8_000, 0.5, 0.5 - 64.0 / 1024))
        #expect(glass.offset(2).y == 56)
        #expect(glass.offset(1).y == 0)
        #expect(glass.offset(0).y == 0)
        #expect(glass.updates(of: 0).isEmpty)
        #expect(glass.updates(of: 1).isEmpty)
        #expect(glass.engine[2].source?.kind == .touch)
        glass.send(Self.up(16_000))
        // Off every frame: nothing is published at all.
        var outside = Glass()
        outside.add("corner", ContainerConfiguration(touchFrame: Rect(x: 0, y: 0, width: 0.25, height: 0.25)))
        outside.send(Self.down(0, 0.5, 0.5), Self.motion(8_000, 0.5, 0.25), Self.up(16_000))
        #expect(outside.published.isEmpty)
    }

    @Test("A second finger down while one drags is ignored")
    func secondFinger() {
        var glass = Glass()
        glass.add("list", Self.list())
        glass.scroll(0, to: 1000)
        glass.send(Self.down(0, 0.25, 0.125, slot: 0))
        glass.send(Self.motion(8_000, 0.25, 0.125 - 24.0 / 2048, slot: 0))
        #expect(glass.offset(0).y == 1016)
        let count = glass.published.count
        glass.send(Self.down(10_000, 0.3, 0.1, slot: 1))
        glass.send(Self.motion(12_000, 0.3, 0.2, slot: 1))
        glass.send(Self.up(14_000, slot: 1))
        #expect(glass.published.count == count)
        #expect(glass.offset(0).y == 1016)
        glass.send(Self.motion(16_000, 0.25, 0.125 - 40.0 / 2048, slot: 0))
        #expect(glass.offset(0).y == 1032)
        // The same slot on another touchscreen is another finger, too.
        glass.send(Self.motion(18_000, 0.25, 0.0, slot: 0, dev: 8))
        #expect(glass.offset(0).y == 1032)
    }

    @Test("A touchscreen removed mid-drag ends the drag, and its touch")
    func deviceRemoved() {
        var glass = Glass()
        glass.add("list", Self.list())
        glass.scroll(0, to: 1000)
        glass.send(Self.down(0, 0.25, 0.125))
        glass.send(Self.motion(8_000, 0.25, 0.125 - 24.0 / 2048))
        glass.send(ScrollEvent(time: 16_000, device: 7, kind: .deviceRemoved))
        #expect(glass.engine.touch == nil)
        #expect(glass.state(0).phase != .interacting)
    }
}
