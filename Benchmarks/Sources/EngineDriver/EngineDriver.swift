import ScrollModel

/// Feeds synthetic input to an engine with one container and folds every published state into
/// a checksum, so the optimizer cannot drop the work a subscriber would see.
public struct EngineDriver {
    public enum Layout: Sendable {
        /// A 800×600 container over 800×20 000 content.
        case plain
        /// 10 000 rows of 44 pt under a header collapsing from 220 to 64 pt.
        case list
    }

    /// The devices' input shaping (DESIGN §18).
    public enum Shaping: Sendable {
        /// No rules: events pass as they are.
        case none
        /// The mouse at speed 1.5 with wheel acceleration 2, the touchpad at speed_y 0.8
        /// without momentum: every event shaped.
        case shaped
        /// The mouse a detent knob (whole rows on the list layout).
        case detent
    }

    var engine = ScrollEngine(frameRate: 120)
    var time: Timestamp = 1_000_000
    var step = 0
    public private(set) var checksum = 0.0

    public init(_ layout: Layout, shaping: Shaping = .none) {
        var configuration = ContainerConfiguration()
        if layout == .list {
            configuration.contentSize = nil
            configuration.header = HeaderConfiguration(minHeight: 64, maxHeight: 220)
            configuration.rows = RowsConfiguration(count: 10_000, height: 44)
        }
        engine.add(ScrollContainer(name: "main", configuration: configuration, at: time))
        switch shaping {
        case .none: break
        case .shaped:
            engine.setShapingRules(InputShapingRules([
                .init(match: "mouse", speed: 1.5, wheelAcceleration: 2),
                .init(match: "touchpad", speedY: 0.8, momentum: false),
            ]))
        case .detent:
            engine.setShapingRules(InputShapingRules([.init(match: "mouse", detent: true)]))
        }
        feed(ScrollEvent(time: time, device: 1, kind: .deviceAdded(name: "mouse", capabilities: .wheel)))
        feed(ScrollEvent(time: time, device: 2, kind: .deviceAdded(name: "touchpad", capabilities: [.finger, .hold])))
    }

    /// Hi-res clicks 1 ms apart, 200 one way then 200 back, so the offset stays in range.
    public mutating func wheel(count: Int) {
        for _ in 0..<count {
            time += 1_000
            step += 1
            let v120: Double = (step / 200) % 2 == 0 ? 30 : -30
            feed(ScrollEvent(time: time, device: 1, kind: .wheel(v120: AxisValues(y: v120), degrees: AxisValues(y: v120 / 8))))
        }
    }

    /// Two-finger drags, 7 ms apart, each 40 events long and ending in a scroll stop.
    public mutating func finger(count: Int) {
        for _ in 0..<count {
            time += 7_000
            step += 1
            let delta: Double
            if step % 40 == 0 {
                delta = 0
            } else {
                delta = (step / 40) % 2 == 0 ? 6.5 : -6.5
            }
            feed(ScrollEvent(time: time, device: 2, kind: .finger(AxisValues(x: 0, y: delta))))
        }
    }

    /// Frame ticks only: a fast drag that ends in a fling (or a bounce off an edge), then the
    /// engine runs its 120 Hz frames until it rests, and again.
    public mutating func frames(count: Int) {
        var ticks = 0
        while ticks < count {
            if engine.nextDeadline == nil {
                let direction: Double = step % 2 == 0 ? 1 : -1
                step += 1
                for _ in 0..<3 {
                    time += 7_000
                    feed(ScrollEvent(time: time, device: 2, kind: .finger(AxisValues(x: 0, y: direction * 40))))
                }
                time += 7_000
                feed(ScrollEvent(time: time, device: 2, kind: .finger(AxisValues(x: 0, y: 0))))
            }
            guard let deadline = engine.nextDeadline else { continue }
            time = deadline
            engine.advance(to: deadline) { update in
                checksum += update.state.contentOffset.y
            }
            ticks += 1
        }
    }

    @inline(__always)
    mutating func feed(_ event: ScrollEvent) {
        engine.handle(event) { update in
            checksum += update.state.contentOffset.y
        }
    }
}
