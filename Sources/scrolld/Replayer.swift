import ScrollLog
import ScrollModel

/// Which states a replay publishes.
enum ReplayMode {
    /// A state after every input event and at every frame or timer while in motion.
    case everyState
    /// A state every `interval` µs from the first event until everything is idle.
    case every(Timestamp)
    /// One state per listed offset (µs after the first event), in time order.
    case at([Timestamp])
}

/// Drives one container through the engine from a log's events and hands its states to a sink
/// (printed, or plotted), exactly as a live subscriber would have seen them (DESIGN §6).
struct Replayer<Sink: ReplaySink> {
    typealias Mode = ReplayMode

    /// How far past the last event the engine may run to come to rest: a motion longer than
    /// this (only absurd physics constants make one) is cut short with a warning.
    static var settleLimit: Timestamp { 600_000_000 }

    var engine: ScrollEngine
    let index: Int
    let name: String
    let mode: Mode
    var sink: Sink
    var origin: Timestamp?
    var nextSample = 0
    var lastEventTime: Timestamp = .min

    init(container name: String, configuration: ContainerConfiguration, frameRate: Double, mode: Mode, sink: Sink) {
        engine = ScrollEngine(frameRate: frameRate)
        index = engine.add(ScrollContainer(name: name, configuration: configuration))
        self.name = name
        self.mode = mode
        self.sink = sink
    }

    mutating func feed(_ event: ScrollEvent) {
        // Time never runs backwards: a log whose clock jumps back is applied at the last time.
        var event = event
        if event.time < lastEventTime { event.time = lastEventTime }
        lastEventTime = event.time
        if origin == nil {
            origin = event.time
            sink.begin(at: event.time, state: engine[index].state)
        }
        switch mode {
        case .everyState:
            Self.handle(event, container: index, engine: &engine, sink: &sink)
        case .every, .at:
            emitSamples(before: event.time)
            Self.handleUnpublished(event, container: index, engine: &engine, sink: &sink)
        }
    }

    mutating func finish() {
        guard let origin else { return sink.flush() }
        let limit = lastEventTime + Self.settleLimit
        switch mode {
        case .everyState:
            while let next = engine.nextDeadline, next <= limit {
                Self.advance(to: next, container: index, engine: &engine, sink: &sink)
            }
            if engine.nextDeadline != nil { standardError("scrolld: replay: still moving \(Self.settleLimit / 1_000_000) s after the last event; stopped there") }
        case .every(let interval):
            while true {
                let time = origin + Timestamp(nextSample) * interval
                sample(at: time)
                nextSample += 1
                if time >= lastEventTime && engine.isIdle { break }
                if time > limit {
                    standardError("scrolld: replay: still moving \(Self.settleLimit / 1_000_000) s after the last event; stopped there")
                    break
                }
            }
        case .at(let offsets):
            while nextSample < offsets.count {
                sample(at: origin + offsets[nextSample])
                nextSample += 1
            }
        }
        sink.flush()
    }

    /// Publishes the samples due strictly before `time` (events at a sample's time are applied
    /// before it is taken).
    mutating func emitSamples(before time: Timestamp) {
        guard let origin else { return }
        switch mode {
        case .everyState:
            return
        case .every(let interval):
            while origin + Timestamp(nextSample) * interval < time {
                sample(at: origin + Timestamp(nextSample) * interval)
                nextSample += 1
            }
        case .at(let offsets):
            while nextSample < offsets.count, origin + offsets[nextSample] < time {
                sample(at: origin + offsets[nextSample])
                nextSample += 1
            }
        }
    }

    mutating func sample(at time: Timestamp) {
        sink.publish(engine.sample(container: index, at: time), cause: nil)
    }

    // Engine and sink are passed as two inout arguments so that publishing from inside the
    // engine's callback needs no copy of either.
    static func handle(_ event: ScrollEvent, container: Int, engine: inout ScrollEngine, sink: inout Sink) {
        engine.handle(event) { update in
            guard update.container == container else { return }
            // The engine publishes a state after exactly the input routed to the container.
            if update.cause == .input, event.isInput { sink.input(event) }
            sink.publish(update.state, cause: update.cause)
        }
    }

    /// Applies an event without publishing states (sampled modes), telling the sink about it
    /// when it reached the container.
    static func handleUnpublished(_ event: ScrollEvent, container: Int, engine: inout ScrollEngine, sink: inout Sink) {
        engine.handle(event) { update in
            if update.container == container, update.cause == .input, event.isInput { sink.input(event) }
        }
    }

    static func advance(to time: Timestamp, container: Int, engine: inout ScrollEngine, sink: inout Sink) {
        engine.advance(to: time) { update in
            if update.container == container { sink.publish(update.state, cause: update.cause) }
        }
    }
}

/// Where a replay's states go: printed as state lines, or collected for a plot.
protocol ReplaySink {
    /// The log's first event is at `origin`; `state` is the container's before any input.
    mutating func begin(at origin: Timestamp, state: ScrollState)
    /// A state: after input or at a frame or timer (`cause`), or sampled (nil).
    mutating func publish(_ state: ScrollState, cause: ScrollEngine.Cause?)
    /// An input event that reached the container.
    mutating func input(_ event: ScrollEvent)
    /// Writes out whatever is buffered.
    mutating func flush()
}

extension ReplaySink {
    mutating func begin(at origin: Timestamp, state: ScrollState) {}
    mutating func input(_ event: ScrollEvent) {}
}

/// Numbers and encodes one container's states onto an output stream.
struct StatePrinter: ReplaySink {
    let container: String
    var output: OutputStream
    var encoder = StateEncoder()
    var seq = 0

    init(container: String, output: OutputStream) {
        self.container = container
        self.output = output
    }

    mutating func publish(_ state: ScrollState, cause: ScrollEngine.Cause?) {
        seq += 1
        encoder.encode(state, container: container, seq: seq, into: &output.buffer)
        output.buffer.append(UInt8(ascii: "\n"))
        output.flushIfFull()
    }

    mutating func flush() { output.flush() }
}
