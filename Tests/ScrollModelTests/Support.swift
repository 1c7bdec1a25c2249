@testable import ScrollModel
import Testing

/// Compares to the printed precision of the expected figure (3 decimals unless told).
func expectClose(
    _ actual: Double, _ expected: Double, tolerance: Double = 0.0005,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    #expect(abs(actual - expected) <= tolerance, "\(actual) is not \(expected) ± \(tolerance)", sourceLocation: sourceLocation)
}

extension ScrollEvent {
    static func wheel(_ t: Timestamp, y: Double? = nil, x: Double? = nil, dev: Int = 1) -> ScrollEvent {
        ScrollEvent(time: t, device: dev, kind: .wheel(v120: AxisValues(x: x, y: y), degrees: nil))
    }

    static func finger(_ t: Timestamp, y: Double? = nil, x: Double? = nil, dev: Int = 2) -> ScrollEvent {
        ScrollEvent(time: t, device: dev, kind: .finger(AxisValues(x: x, y: y)))
    }

    static func stop(_ t: Timestamp, dev: Int = 2) -> ScrollEvent {
        ScrollEvent(time: t, device: dev, kind: .finger(AxisValues(x: 0, y: 0)))
    }
}

/// A container under an engine, with every published state collected.
struct Harness {
    var engine = ScrollEngine()
    var published: [ScrollEngine.Update] = []
    /// Whether the indicators keep their linger (see `init`); `configure` keeps the choice.
    let lingering: Bool

    /// `lingering: false` (the default) sets `indicator_linger_ms` to 0: the indicators hide with
    /// the state that comes to rest, so the tests of other behaviours see the states of
    /// docs/design.md §5 alone, without the indicators' one-shot hide (docs/design.md §22).
    /// The indicators' own tests, and every daemon test, keep the 500 ms linger.
    init(_ configuration: ContainerConfiguration = ContainerConfiguration(), lingering: Bool = false) {
        self.lingering = lingering
        var configuration = configuration
        if !lingering { configuration.gestures.indicatorLingerMilliseconds = 0 }
        engine.add(ScrollContainer(name: "main", configuration: configuration))
    }

    var container: ScrollContainer { engine[0] }
    var state: ScrollState { engine[0].state }

    mutating func send(_ events: ScrollEvent...) {
        for event in events {
            var out: [ScrollEngine.Update] = []
            engine.handle(event) { out.append($0) }
            published += out
        }
    }

    mutating func run(until time: Timestamp) {
        var out: [ScrollEngine.Update] = []
        engine.advance(to: time) { out.append($0) }
        published += out
    }

    /// Runs until nothing moves and no timer is armed (bounded, so a bug cannot hang a test).
    mutating func settle(limit: Timestamp = 60_000_000) {
        while let next = engine.nextDeadline, next <= limit { run(until: next) }
    }

    /// `configure` at `time` after everything due before it; returns whether it changed anything.
    @discardableResult
    mutating func configure(
        _ configuration: ContainerConfiguration, edit: RowEdit? = nil, animation: ScrollAnimation = .none, at time: Timestamp
    ) -> Bool {
        run(until: time)
        var configuration = configuration
        if !lingering { configuration.gestures.indicatorLingerMilliseconds = 0 }
        var changed = false
        _ = engine.update(container: 0, at: time) { changed = $0.configure(configuration, edit: edit, animation: animation, at: time) }
        if changed { published.append(engine.publish(container: 0)) }
        return changed
    }

    /// `scrollTo` a position at `time` after everything due before it.
    @discardableResult
    mutating func scroll(to position: ScrollPosition, animation: ScrollAnimation = .none, at time: Timestamp) throws(ScrollPositionError) -> Bool {
        run(until: time)
        var moved = false
        var failure: ScrollPositionError?
        _ = engine.update(container: 0, at: time) { container in
            do throws(ScrollPositionError) { moved = try container.scroll(to: position, animation: animation, at: time) } catch { failure = error }
        }
        if let failure { throw failure }
        if moved { published.append(engine.publish(container: 0)) }
        return moved
    }

    mutating func sample(at time: Timestamp) -> ScrollState {
        run(until: time)
        var container = engine[0]
        return container.state(at: time)
    }
}
