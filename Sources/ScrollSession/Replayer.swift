import ScrollConfig
import ScrollLog
import ScrollModel
import ScrollProtocol

/// Which states a replay publishes.
public enum ReplayMode: Sendable {
    /// Every state the container published: after each input event and request that reached
    /// it, and at every frame or timer while it moves.
    case everyState
    /// A state every `interval` µs from the first line until everything is idle.
    case every(Timestamp)
    /// One state per listed offset (µs after the first line), in time order.
    case at([Timestamp])
}

/// Drives a session from a log's lines and hands one container's states to a sink (printed, or
/// plotted), exactly as a live subscriber of that container would have seen them
/// (docs/design.md §6, §17): the daemon applies the same commands to the same `Session`.
///
/// What the replayer adds is what a log cannot say: time never runs backwards between its
/// lines (a log whose clock jumps back is applied at the last time), and after the last line
/// the session runs on until it rests.
public struct Replayer<Sink: ReplaySink> {
    /// How far past the last line the session may run to come to rest: a motion longer than
    /// this (only absurd physics constants make one) is cut short with a warning.
    public static var settleLimit: Timestamp { 600_000_000 }

    public private(set) var session: Session
    /// The container replayed, and its position once it exists (a recorded session may
    /// create it).
    public let name: String
    public private(set) var id: ContainerID?
    public let mode: ReplayMode
    public var sink: Sink
    private var origin: Timestamp?
    private var nextSample = 0
    private var lastTime: Timestamp = .min

    /// A replay of container `name` under `configuration`; a container the configuration does
    /// not define may still be created by the log's requests. Without nesting the container is
    /// alone (input reaches it as it reaches every container); with nesting (docs/design.md §14)
    /// every container is built, since where input goes depends on the others' offsets and a
    /// focus; so too with `everyContainer` (a focus given on the command line), and when a
    /// container has a `touch_frame` (a touch goes to the container under it, docs/design.md §25).
    public init(container name: String, configuration: Configuration, mode: ReplayMode, sink: Sink, everyContainer: Bool = false) throws(ConfigurationError) {
        let defined = configuration.container(named: name) != nil
        let nested = everyContainer || configuration.containers.contains { $0.parent != nil || $0.touchFrame != nil }
        session = try Session(configuration: configuration, containers: nested ? nil : defined ? [name] : [], at: 0)
        self.name = name
        self.mode = mode
        self.sink = sink
        id = session.index(of: name).map { session.engine.slots[$0].id }
        containerExists = id != nil
    }

    /// Whether the container replayed has existed (it may be created only by the log's
    /// requests, and removed by them).
    public private(set) var containerExists = false

    /// The replayed container's settings, once it exists.
    public var configuration: ContainerConfiguration? {
        id.flatMap { session.engine.index(of: $0) }.map { session.engine.slots[$0].container.configuration }
    }

    /// An input event line. (Input is most of a log: it takes the shortest way through.)
    ///
    /// The event is moved into its command and taken back out after it was applied, not
    /// copied: copying an event copies its kind case by case, twice here, and destroys both
    /// copies after (~150 instructions per event).
    public mutating func feed(_ event: consuming ScrollEvent) {
        let stamped = event.time
        let time = Swift.max(stamped, lastTime)
        begin(at: time)
        if case .everyState = mode {} else { emitSamples(before: time) }
        // A late event applies at the log's time; the sink hears of it as it was written.
        event.time = time
        let command = Command.input(consume event)
        // Input never fails, and makes and removes no container.
        guard let published = try? session.apply(command), let id,
              case .input(var event) = consume command
        else { return }
        event.time = stamped
        if case .everyState = mode {
            publish(published, of: id, input: event)
        } else if event.isInput, published.contains(where: { $0.id == id && $0.cause == .input }) {
            // The engine publishes a state after exactly the input routed to the container.
            sink.input(event)
        }
    }

    /// Any other line of a recorded session: applied as the daemon applied it. (Rare: kept out
    /// of the input's way.)
    @inline(never)
    public mutating func feed(_ line: RecordedRequest) throws(ProtocolError) {
        let command = try Command(recorded: line, atStart: origin == nil)
        try apply(command, at: Swift.max(line.time, lastTime))
    }

    /// A command of the replay's own (`--focus`), at the start.
    public mutating func apply(_ command: Command) throws(ProtocolError) {
        _ = try session.apply(command)
        lookUpContainer()
    }

    public mutating func finish() {
        guard let origin else { return sink.flush() }
        let limit = lastTime + Self.settleLimit
        switch mode {
        case .everyState:
            while let next = session.nextDeadline, next <= limit {
                if let published = try? session.apply(.advance(to: next)), let id { publish(published, of: id) }
            }
            if session.nextDeadline != nil { stillMoving() }
        case .every(let interval):
            while true {
                let time = origin + Timestamp(nextSample) * interval
                sample(at: time)
                nextSample += 1
                if time >= lastTime && session.engine.isIdle { break }
                if time > limit {
                    stillMoving()
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

    private mutating func stillMoving() {
        sink.warning("still moving \(Self.settleLimit / 1_000_000) s after the last event; stopped there")
    }

    /// Applies a line's command at `time`, after the samples due before it; publishes the
    /// container's states when every state is replayed. `input`: the line was this event.
    private mutating func apply(_ command: Command, at time: Timestamp) throws(ProtocolError) {
        begin(at: time)
        if case .everyState = mode {
            let followed = id
            let published = try session.apply(command)
            if published.refused.first != nil { return try refuse(published.refused) }
            lookUpContainer()
            // The container's states up to a command that removes it are its own (the frames
            // that command ran first were delivered live before the removal).
            if let id = followed ?? id { publish(published, of: id) }
        } else {
            emitSamples(before: time)
            let published = try session.apply(command)
            if published.refused.first != nil { return try refuse(published.refused) }
            lookUpContainer()
        }
    }

    /// The log is at `time`: its first line's marks the start.
    private mutating func begin(at time: Timestamp) {
        lastTime = time
        guard origin == nil else { return }
        origin = time
        sink.begin(at: time, state: id.flatMap { session.engine.index(of: $0) }.map { session.engine.slots[$0].container.state })
    }

    private func refuse(_ refused: [(name: String, problem: String)]) throws(ProtocolError) {
        let (name, problem) = refused[0]
        throw ProtocolError(.invalidValue, "recorded restore of \(name): \(problem)")
    }

    /// A request may create the container replayed, or remove it (a container made again
    /// under its name is followed from then on, as a subscriber that subscribed again would).
    private mutating func lookUpContainer() {
        if let id, session.engine.index(of: id) == nil { self.id = nil }
        if id == nil { id = session.index(of: name).map { session.engine.slots[$0].id } }
        if id != nil { containerExists = true }
    }

    /// The states of container `id` among `published`, read in place (not copied out first).
    private mutating func publish(_ published: Publications, of id: ContainerID) {
        let states = published.states
        for index in published.indices where states[index].id == id {
            sink.publish(states[index].state, seq: states[index].seq, cause: states[index].cause, paused: states[index].paused)
        }
    }

    /// ``publish(_:of:)`` after an input event: the sink hears of the event when it reached the
    /// container (the engine publishes a state after exactly the input routed to it).
    private mutating func publish(_ published: Publications, of id: ContainerID, input event: ScrollEvent) {
        let states = published.states
        for index in published.indices where states[index].id == id {
            if event.isInput, states[index].cause == .input { sink.input(event) }
            sink.publish(states[index].state, seq: states[index].seq, cause: states[index].cause, paused: states[index].paused)
        }
    }

    /// Publishes the samples due strictly before `time` (lines at a sample's time are applied
    /// before it is taken).
    private mutating func emitSamples(before time: Timestamp) {
        guard let origin else { return }
        switch mode {
        case .everyState:
            return
        case .every(let interval):
            while origin + Timestamp(nextSample) * interval < time {
                sample(at: origin + Timestamp(nextSample) * interval)
                nextSample += 1
                skipIdleSamples(before: time, origin: origin, interval: interval)
            }
        case .at(let offsets):
            while nextSample < offsets.count, origin + offsets[nextSample] < time {
                sample(at: origin + offsets[nextSample])
                nextSample += 1
            }
        }
    }

    /// Leaves out the samples of an idle stretch longer than ``settleLimit`` before the line at
    /// `time`: nothing moves and no deadline is due, so each would repeat the last one, and a
    /// log whose clock jumps by years would print them for ever. The next sample is the first
    /// at or after `time`; a shorter pause is sampled throughout, as a live subscriber sees it.
    private mutating func skipIdleSamples(before time: Timestamp, origin: Timestamp, interval: Timestamp) {
        let next = origin + Timestamp(nextSample) * interval
        guard session.engine.isIdle, time - next > Self.settleLimit else { return }
        let first = Int((time - origin + interval - 1) / interval)
        sink.warning("idle until the next line at \(Double(time - origin) / 1e6) s: the \(first - nextSample) samples from \(Double(next - origin) / 1e6) s on are left out")
        nextSample = first
    }

    /// A sampled state; before the container exists there is nothing to sample.
    private mutating func sample(at time: Timestamp) {
        guard let id, session.engine.index(of: id) != nil else { return }
        _ = try? session.apply(.advance(to: time))
        guard let index = session.engine.index(of: id) else { return }
        let slot = session.engine.slots[index]
        sink.publish(session.state(of: index, at: time), seq: nil, cause: nil, paused: slot.isPaused)
    }
}

/// Where a replay's states go: printed as state lines, or collected for a plot.
public protocol ReplaySink {
    /// The log's first line is at `origin`; `state` is the container's before any input (nil
    /// when a request of the log creates it later).
    mutating func begin(at origin: Timestamp, state: ScrollState?)
    /// A state: published (`seq` and `cause` given), or sampled (both nil); `paused` while a
    /// `pause` request is in force on the container (docs/design.md §19: its state says so).
    mutating func publish(_ state: ScrollState, seq: Int?, cause: ScrollEngine.Cause?, paused: Bool)
    /// An input event that reached the container.
    mutating func input(_ event: ScrollEvent)
    /// Something the person replaying should hear about (the session did not come to rest).
    mutating func warning(_ message: String)
    /// Writes out whatever is buffered.
    mutating func flush()
}

extension ReplaySink {
    public mutating func begin(at origin: Timestamp, state: ScrollState?) {}
    public mutating func input(_ event: ScrollEvent) {}
}
