import ScrollModel

/// Collects a replay's states and input events into a `PlotSeries`, in memory bounded by the
/// plot's resolution rather than the log's length (see `StreamingEnvelope` and `TickSet`);
/// only the phase spans grow with the log, one per phase change.
public struct PlotRecorder: Sendable {
    private var origin: Timestamp?
    private var previous: ScrollState?
    private var offsetX = StreamingEnvelope()
    private var offsetY = StreamingEnvelope()
    private var velocityX = StreamingEnvelope()
    private var velocityY = StreamingEnvelope()
    private var header = StreamingEnvelope()
    /// Where each phase began; the last one lasts until the end.
    private var phaseStarts: [(time: Timestamp, phase: ScrollPhase)] = []
    /// One lane per `InputSource`, in `allCases` order (an array, mutated in place: a
    /// dictionary's copy-out-copy-back would copy the tick arrays on every event).
    private var lanes = PlotSeries.InputSource.allCases.map { _ in Lane() }
    private var frames = TickSet()
    private var stateCount = 0
    private var eventCount = 0
    private var end: Timestamp = 0
    private var restingRangeX: ClosedRange<Double> = 0...0
    private var restingRangeY: ClosedRange<Double> = 0...0

    public init() {}

    /// Starts the series at the log's first event with the container's state before any input
    /// (it rests there until the first state arrives).
    public mutating func begin(at origin: Timestamp, state: ScrollState) {
        guard self.origin == nil else { return }
        self.origin = origin
        restingRangeX = state.geometry.restingRange(.horizontal)
        restingRangeY = state.geometry.restingRange(.vertical)
        append(state, at: 0)
        enter(state.phase, at: 0)
        previous = state
    }

    /// Records a published (or sampled) state; `isFrame` marks a frame tick.
    public mutating func record(_ state: ScrollState, isFrame: Bool) {
        if origin == nil { begin(at: state.time, state: state) }
        let time = relative(state.time)
        stateCount += 1
        if isFrame { frames.insert(time) }
        if let previous {
            // A step: the previous value holds until this instant.
            hold(previous, changingTo: state, at: time)
        } else {
            append(state, at: time)
        }
        enter(state.phase, at: time)
        previous = state
        end = max(end, time)
    }

    /// Records an input event that reached the container (device events are not input).
    public mutating func recordInput(_ event: ScrollEvent) {
        let source: PlotSeries.InputSource
        var isStop = false
        switch event.kind {
        case .wheel: source = .wheel
        case .finger(let values):
            source = .finger
            isStop = values.x == 0 || values.y == 0
        case .continuous(let values):
            source = .continuous
            isStop = values.x == 0 || values.y == 0
        case .holdBegin, .holdEnd: source = .hold
        case .touchDown, .touchMotion: source = .touch
        case .touchUp, .touchCancel:
            source = .touch
            isStop = true
        case .deviceAdded, .deviceRemoved: return
        }
        if origin == nil { origin = event.time }
        let time = relative(event.time)
        eventCount += 1
        let lane = PlotSeries.InputSource.allCases.firstIndex(of: source)!
        lanes[lane].events.insert(time)
        if isStop { lanes[lane].stops.insert(time) }
        end = max(end, time)
    }

    /// The series, ending at the last state or event.
    public func series(_ description: PlotSeries.Description) -> PlotSeries {
        var x = self
        x.close()
        return PlotSeries(
            description: description,
            duration: seconds(x.end),
            offsetX: x.offsetX.points,
            offsetY: x.offsetY.points,
            velocityX: x.velocityX.points,
            velocityY: x.velocityY.points,
            headerHeight: x.header.points,
            phases: x.phaseSpans,
            inputs: zip(PlotSeries.InputSource.allCases, x.lanes).compactMap { source, lane in
                lane.events.count == 0
                    ? nil
                    : PlotSeries.InputTicks(source: source, events: lane.events.seconds, stops: lane.stops.seconds, count: lane.events.count)
            },
            frames: x.frames.seconds,
            frameCount: x.frames.count,
            stateCount: x.stateCount,
            eventCount: x.eventCount,
            restingRangeX: x.restingRangeX,
            restingRangeY: x.restingRangeY
        )
    }

    /// Extends every series to the end.
    private mutating func close() {
        guard let previous else { return }
        append(previous, at: end)
    }

    /// Notes a phase change; a phase that lasted no time at all is dropped, joining its
    /// neighbours when they are equal.
    private mutating func enter(_ phase: ScrollPhase, at time: Timestamp) {
        if let last = phaseStarts.last {
            if last.phase == phase { return }
            if last.time == time {
                phaseStarts.removeLast()
                if phaseStarts.last?.phase == phase { return }
            }
        }
        phaseStarts.append((time, phase))
    }

    private var phaseSpans: [PlotSeries.PhaseSpan] {
        phaseStarts.indices.compactMap { index in
            let start = phaseStarts[index].time
            let stop = index + 1 < phaseStarts.count ? phaseStarts[index + 1].time : end
            // The last phase is kept even when it began at the end: it is the one that holds.
            guard stop > start || index == phaseStarts.count - 1 else { return nil }
            return PlotSeries.PhaseSpan(start: seconds(start), end: seconds(stop), phase: phaseStarts[index].phase)
        }
    }

    private mutating func hold(_ old: ScrollState, changingTo new: ScrollState, at time: Timestamp) {
        Self.step(&offsetX, old.contentOffset.x, new.contentOffset.x, time)
        Self.step(&offsetY, old.contentOffset.y, new.contentOffset.y, time)
        Self.step(&velocityX, old.velocity.x, new.velocity.x, time)
        Self.step(&velocityY, old.velocity.y, new.velocity.y, time)
        if let height = new.header?.height {
            if let before = old.header?.height {
                Self.step(&header, before, height, time)
            } else {
                header.append(time: time, value: height)
            }
        }
    }

    /// Unchanged values add nothing: the step's end point is added when the value changes or
    /// the series closes.
    private static func step(_ envelope: inout StreamingEnvelope, _ old: Double, _ new: Double, _ time: Timestamp) {
        guard new != old else { return }
        envelope.append(time: time, value: old)
        envelope.append(time: time, value: new)
    }

    private mutating func append(_ state: ScrollState, at time: Timestamp) {
        offsetX.append(time: time, value: state.contentOffset.x)
        offsetY.append(time: time, value: state.contentOffset.y)
        velocityX.append(time: time, value: state.velocity.x)
        velocityY.append(time: time, value: state.velocity.y)
        if let height = state.header?.height { header.append(time: time, value: height) }
    }

    private func relative(_ time: Timestamp) -> Timestamp {
        max(0, time - (origin ?? time))
    }

    private func seconds(_ time: Timestamp) -> Double { Double(time) / 1_000_000 }

    private struct Lane: Sendable {
        var events = TickSet()
        var stops = TickSet()
    }
}
