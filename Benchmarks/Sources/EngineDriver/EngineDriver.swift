import ScrollModel

/// Feeds synthetic input to an engine with one container and folds every published state into
/// a checksum, so the optimizer cannot drop the work a subscriber would see.
public struct EngineDriver {
    public enum Layout: Sendable {
        /// A 800×600 container over 800×20 000 content.
        case plain
        /// 10 000 rows of 44 pt under a header collapsing from 220 to 64 pt.
        case list
        /// A 3-level chain (docs/design.md §14): a horizontal carousel, focused, in a vertical list
        /// in a vertical page. Vertical input is given to the carousel and routed up to the list.
        case nested
        /// `list` with docs/design.md §21's app bars: the header `enterAlways`, a sticky section
        /// header every 10 rows (1 000 of them), pull to refresh.
        case appbars
    }

    /// The devices' input shaping (docs/design.md §18).
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
    /// docs/design.md §13 as the daemon runs it: each observation's value in every published state,
    /// compared with the value last sent.
    let observations: [ScrollObservation]
    var sent: [ObservationValue?]
    /// The states of one command, evaluated after it (as the daemon does: the values read the
    /// container's rows, which the command may change); kept to reuse its storage.
    var published: [ScrollState] = []
    /// Observation messages the daemon would send.
    public private(set) var changes = 0
    let layout: Layout

    public init(_ layout: Layout, shaping: Shaping = .none, observing observations: [ScrollObservation] = []) {
        self.layout = layout
        self.observations = observations
        sent = Array(repeating: nil, count: observations.count)
        published.reserveCapacity(16)
        var configuration = ContainerConfiguration()
        if layout == .list || layout == .appbars {
            configuration.contentSize = nil
            configuration.header = HeaderConfiguration(minHeight: 64, maxHeight: 220)
            configuration.rows = RowsConfiguration(count: 10_000, height: 44)
        }
        if layout == .appbars {
            configuration.header?.mode = .enterAlways
            configuration.rows?.sticky = Array(stride(from: 0, to: 10_000, by: 10))
            configuration.refresh = RefreshConfiguration(threshold: 80, height: 60)
        }
        if layout == .nested {
            engine.add(ScrollContainer(name: "page", configuration: configuration, at: time))
            engine.add(ScrollContainer(name: "list", configuration: ContainerConfiguration(parent: "page"), at: time))
            let carousel = ContainerConfiguration(
                containerSize: Size(width: 800, height: 200), contentSize: Size(width: 8000, height: 200), axes: .horizontal, parent: "list"
            )
            engine.add(ScrollContainer(name: "carousel", configuration: carousel, at: time))
            engine.setFocus(2)
        } else {
            engine.add(ScrollContainer(name: "main", configuration: configuration, at: time))
        }
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
            // Nested: the vertical axis alone, as libinput reports a vertical swipe (a present
            // x = 0 would be a scroll stop for the carousel, another container's update).
            let values = layout == .nested ? AxisValues(y: delta) : AxisValues(x: 0, y: delta)
            feed(ScrollEvent(time: time, device: 2, kind: .finger(values)))
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
        guard !observations.isEmpty else {
            engine.handle(event) { update in
                checksum += update.state.contentOffset.y
            }
            return
        }
        var states: [ScrollState] = []
        swap(&states, &published)
        engine.handle(event) { update in
            checksum += update.state.contentOffset.y
            states.append(update.state)
        }
        for state in states {
            for index in observations.indices {
                let value = engine.value(of: observations[index], container: 0, in: state)
                if value != sent[index] {
                    sent[index] = value
                    changes += 1
                }
            }
        }
        states.removeAll(keepingCapacity: true)
        swap(&states, &published)
    }
}

/// docs/design.md §12's row edits on a long list: one row inserted in the middle, then removed
/// again, each applied to the container as `configure` applies it (scroll anchoring included).
public struct RowEditDriver {
    var container: ScrollContainer
    var configuration: ContainerConfiguration
    var time: Timestamp = 1_000_000
    public private(set) var checksum = 0.0

    /// `rows` rows of alternating heights (so they do not fold into one run), scrolled to the middle.
    public init(rows: Int) {
        configuration = ContainerConfiguration()
        configuration.contentSize = nil
        configuration.header = HeaderConfiguration(minHeight: 64, maxHeight: 220)
        var heights = [Double]()
        heights.reserveCapacity(rows)
        for row in 0..<rows { heights.append(row % 2 == 0 ? 44 : 60) }
        configuration.rows = RowsConfiguration(heights: .explicit(heights))
        container = ScrollContainer(name: "list", configuration: configuration, at: time)
        _ = try? container.scroll(to: .row(rows / 2, anchor: .center), animation: .none, at: time)
    }

    /// `count` edits, alternately an insert before the middle row and its removal.
    public mutating func edit(count: Int) {
        for number in 0..<count {
            time += 1_000
            let middle = (configuration.rows?.heights.count ?? 0) / 2
            let edit: RowEdit = number % 2 == 0 ? .insert(at: middle, count: 1, height: 50) : .remove(at: middle, count: 1)
            try? configuration.rows?.apply(edit)
            container.configure(configuration, edit: edit, at: time)
            checksum += container.state.contentOffset.y
        }
    }
}

/// Observations a client can ask for (docs/design.md §13), one of each kind, for the benchmarks.
public enum ObservationSet {
    public static let eight: [ScrollObservation] = [
        .phase, .contentOffset(.vertical, step: 10), .velocity(.vertical, step: nil), .headerProgress(step: 0.1),
        .visibleRows, .rowVisible(row: 5_000, threshold: 0.5), .nearEnd(distance: 1_000, axis: .vertical), .atEdge(.top),
    ]
}
