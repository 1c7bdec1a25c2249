import ScrollConfig
import ScrollLog
import ScrollModel
import ScrollProtocol
import ScrollSession

/// Which states a replay publishes.
enum ReplayMode {
    /// A state after every input event and at every frame or timer while in motion.
    case everyState
    /// A state every `interval` µs from the first event until everything is idle.
    case every(Timestamp)
    /// One state per listed offset (µs after the first event), in time order.
    case at([Timestamp])
}

/// Drives a session from a log's lines and hands one container's states to a sink (printed, or
/// plotted), exactly as a live subscriber of that container would have seen them
/// (docs/design.md §6, §17): the daemon runs the same `Session`, fed by the same kinds of commands.
struct Replayer<Sink: ReplaySink> {
    typealias Mode = ReplayMode

    /// How far past the last event the engine may run to come to rest: a motion longer than
    /// this (only absurd physics constants make one) is cut short with a warning.
    static var settleLimit: Timestamp { 600_000_000 }

    var session: Session
    /// The container replayed, and its index once it exists (a recorded session may create it).
    let name: String
    var index: Int?
    let mode: Mode
    var sink: Sink
    var origin: Timestamp?
    var nextSample = 0
    var lastEventTime: Timestamp = .min

    /// A replay of container `name` under `configuration`; a container the configuration does
    /// not define may still be created by the log's requests. Without nesting the container is
    /// alone (input reaches it as it reaches every container); with nesting (docs/design.md §14)
    /// every container is built, since where input goes depends on the others' offsets and a focus;
    /// so too with `everyContainer` (a focus given on the command line).
    init(container name: String, configuration: Configuration, mode: Mode, sink: Sink, everyContainer: Bool = false) throws(ConfigurationError) {
        let defined = configuration.container(named: name) != nil
        let nested = everyContainer || configuration.containers.contains { $0.parent != nil }
        session = try Session(configuration: configuration, containers: nested ? nil : defined ? [name] : [], at: 0)
        self.name = name
        index = session.index(of: name)
        self.mode = mode
        self.sink = sink
    }

    /// Whether the container replayed exists (it may be created only by the log's requests).
    var containerExists: Bool { index != nil }

    /// Marks the start of the log at the first line's time.
    private mutating func begin(at time: Timestamp) {
        guard origin == nil else { return }
        origin = time
        sink.begin(at: time, state: index.map { session.engine.slots[$0].container.state })
    }

    mutating func feed(_ event: ScrollEvent) {
        // Time never runs backwards: a log whose clock jumps back is applied at the last time.
        var event = event
        if event.time < lastEventTime { event.time = lastEventTime }
        lastEventTime = event.time
        begin(at: event.time)
        let index = self.index ?? -1
        switch mode {
        case .everyState:
            Self.input(event, publishing: index, session: &session, sink: &sink)
        case .every, .at:
            emitSamples(before: event.time)
            Self.input(event, publishing: nil, reporting: index, session: &session, sink: &sink)
        }
    }

    /// A request line of a recorded session: applied as the daemon applied it. Requests are
    /// rare, so their publications are gathered first and the container looked up after (a
    /// `configure` may create it).
    mutating func feed(_ request: RecordedRequest) throws(ProtocolError) {
        let time = Swift.max(request.time, lastEventTime)
        lastEventTime = time
        let atStart = origin == nil
        begin(at: time)
        if case .every = mode { emitSamples(before: time) }
        if case .at = mode { emitSamples(before: time) }
        var published: [Publication] = []
        try session.apply(request, atStart: atStart) { published.append($0) }
        index = index ?? session.index(of: name)
        guard case .everyState = mode, let index else { return }
        for publication in published where publication.container == index {
            sink.publish(publication.state, seq: publication.seq, cause: publication.cause, paused: publication.paused)
        }
    }

    mutating func finish() {
        guard let origin else { return sink.flush() }
        let limit = lastEventTime + Self.settleLimit
        switch mode {
        case .everyState:
            while let next = session.nextDeadline, next <= limit {
                Self.advance(to: next, publishing: index ?? -1, session: &session, sink: &sink)
            }
            if session.nextDeadline != nil { standardError("scrolld: replay: still moving \(Self.settleLimit / 1_000_000) s after the last event; stopped there") }
        case .every(let interval):
            while true {
                let time = origin + Timestamp(nextSample) * interval
                sample(at: time)
                nextSample += 1
                if time >= lastEventTime && session.engine.isIdle { break }
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

    /// A sampled state; before the container exists there is nothing to sample.
    mutating func sample(at time: Timestamp) {
        guard let index else { return }
        sink.publish(session.sampleAdvancing(container: index, at: time), seq: nil, cause: nil, paused: session.paused[index])
    }
}

extension Replayer {
    // Session and sink are passed as two inout arguments so that publishing from inside the
    // session's callback needs no copy of either.

    /// Applies an event; the states of container `published` go to the sink, and the event
    /// itself when it reached container `reported` (the published one by default).
    static func input(_ event: ScrollEvent, publishing published: Int?, reporting reported: Int? = nil, session: inout Session, sink: inout Sink) {
        let reported = reported ?? published ?? -1
        let published = published ?? -1
        session.input(event) { publication in
            // The engine publishes a state after exactly the input routed to the container.
            if publication.container == reported, publication.cause == .input, event.isInput { sink.input(event) }
            if publication.container == published { sink.publish(publication.state, seq: publication.seq, cause: publication.cause, paused: publication.paused) }
        }
    }

    static func advance(to time: Timestamp, publishing index: Int, session: inout Session, sink: inout Sink) {
        session.advance(to: time) { publication in
            if publication.container == index { sink.publish(publication.state, seq: publication.seq, cause: publication.cause, paused: publication.paused) }
        }
    }
}

/// Where a replay's states go: printed as state lines, or collected for a plot.
protocol ReplaySink {
    /// The log's first line is at `origin`; `state` is the container's before any input (nil
    /// when a request of the log creates it later).
    mutating func begin(at origin: Timestamp, state: ScrollState?)
    /// A state: published (`seq` and `cause` given), or sampled (both nil); `paused` while a
    /// `pause` request is in force on the container (docs/design.md §19: its state says so).
    mutating func publish(_ state: ScrollState, seq: Int?, cause: ScrollEngine.Cause?, paused: Bool)
    /// An input event that reached the container.
    mutating func input(_ event: ScrollEvent)
    /// Writes out whatever is buffered.
    mutating func flush()
}

extension ReplaySink {
    mutating func begin(at origin: Timestamp, state: ScrollState?) {}
    mutating func input(_ event: ScrollEvent) {}
}

/// Numbers and encodes one container's states onto an output stream.
struct StatePrinter: ReplaySink {
    let container: String
    var output: OutputStream
    var encoder = StateEncoder()
    /// Sampled states are numbered in the order they are printed.
    var samples = 0

    init(container: String, output: OutputStream) {
        self.container = container
        self.output = output
    }

    mutating func publish(_ state: ScrollState, seq: Int?, cause: ScrollEngine.Cause?, paused: Bool) {
        let number: Int
        if let seq {
            number = seq
        } else {
            samples += 1
            number = samples
        }
        encoder.encode(state, container: container, seq: number, paused: paused, into: &output.buffer)
        output.buffer.append(UInt8(ascii: "\n"))
        output.flushIfFull()
    }

    mutating func flush() { output.flush() }
}
