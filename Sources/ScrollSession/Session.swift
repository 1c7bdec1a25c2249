import ScrollConfig
import ScrollModel
import ScrollProtocol

/// The one computation behind `scrolld run` and `scrolld replay` (docs/design.md §17): an ordered
/// stream of timestamped commands — input events, requests, configuration reloads, a restart's
/// restore, the passing of time — turned into published states, each numbered by its
/// container's `seq`.
///
/// A command processor: ``apply(_:)`` is the only way in, and what a command published comes
/// back as a value. The live daemon and the replayer build the same commands; neither numbers,
/// clamps time or applies a request on its own, so a replay of a recorded session prints
/// exactly what the daemon published. A session does no I/O and reads no clock: the commands
/// say when they happen, and what is handed in, in that order, is everything that decides the
/// output. Reads (``state(of:at:)``, ``value(of:container:in:)``) change nothing.
public struct Session: Sendable {
    /// The model: one record per container (its settings, motion, frames, `seq` and whether
    /// it is paused), the focus and the routing, on the commands' clock.
    public internal(set) var engine: ScrollEngine
    /// The configuration in force: the file's (or a replay's options), plus every `configure`.
    public internal(set) var configuration: Configuration
    /// The containers the configuration file defines (at start or the last reload): they
    /// cannot be removed by a request.
    public internal(set) var fileContainers: Set<String>
    /// Set to record every command that changes state as event log lines (docs/design.md §17).
    public internal(set) var recorder: SessionRecorder?
    /// The buffer each command's publications are handed out in (see ``Publications``).
    private var outbox = Publications()

    /// A session with the containers of `configuration` (only those in `containers`, when
    /// given: a replay of one container needs no other), at rest at `time`.
    public init(configuration: Configuration, containers only: [String]? = nil, at time: Timestamp) throws(ConfigurationError) {
        self.configuration = configuration
        fileContainers = Set(configuration.containers.map(\.name))
        engine = ScrollEngine(frameRate: configuration.daemon.frameRate)
        engine.setShapingRules(configuration.shapingRules)
        for settings in configuration.containers where only?.contains(settings.name) ?? true {
            let resolved = try configuration.resolve(container: settings.name)
            engine.add(ScrollContainer(name: settings.name, configuration: resolved, at: time))
        }
    }

    // MARK: The command

    /// Applies `command` and returns what it published, in order. A request that fails
    /// changes nothing, publishes nothing and is not recorded; its error names the problem.
    public mutating func apply(_ command: Command) throws(ProtocolError) -> Publications {
        var published = Publications()
        swap(&published, &outbox)
        published.next()
        defer { outbox = published }
        switch command {
        case .input(let event):
            input(event, into: &published)
        case let .request(operation, client, time):
            try perform(operation, client: client, at: time, into: &published)
        case let .reload(configuration, client, time, initial):
            try reload(configuration, client: client, at: time, initial: initial, into: &published)
        case let .restore(restoration, time):
            restore(restoration, at: time, into: &published)
        case let .desktop(desktop, time):
            try follow(desktop, at: time, into: &published)
        case .advance(let time):
            advance(to: time, into: &published)
        case .runDeadlines(let time):
            engine.runDeadlines(dueBy: time) { published.states.append($0) }
        }
        return published
    }

    /// Starts recording: every command applied from now on is written by `recorder`, after the
    /// configuration in force, stamped `time` (client 0), so that the recording replays from
    /// the daemon's containers. (Not a command: it changes no container.)
    public mutating func startRecording(_ recorder: SessionRecorder, at time: Timestamp) {
        self.recorder = recorder
        self.recorder!.recordReload(configuration, client: 0, at: Swift.max(time, engine.now))
    }

    /// Stops recording (the recording's file failed).
    public mutating func stopRecording() {
        recorder = nil
    }

    /// Hands over the recorded lines not yet written out.
    public mutating func takeRecordedLines() -> [UInt8] {
        recorder?.takePending() ?? []
    }

    // MARK: Reads

    /// The position of the container called `name` in the engine, byte for byte: a name that
    /// is only canonically equivalent (`Cafe\u{301}` for `Caf\u{e9}`) names no container, so
    /// every reply about a container carries the very bytes its client sent (docs/design.md,
    /// "Limits").
    public func index(of name: String) -> Int? {
        guard let index = engine.index(of: name), engine.slots[index].container.name.utf8.elementsEqual(name.utf8) else { return nil }
        return index
    }

    /// The name of a container whose name is canonically equivalent to `name` but spelled
    /// with other bytes; nil when there is none.
    public func otherSpelling(of name: String) -> String? {
        guard let index = engine.index(of: name) else { return nil }
        let existing = engine.slots[index].container.name
        return existing.utf8.elementsEqual(name.utf8) ? nil : existing
    }

    /// The containers' names, in the engine's order.
    public var names: [String] { engine.slots.map(\.container.name) }

    /// The focused container's name (docs/design.md §14), nil: none. A removed container takes
    /// the focus with it.
    public var focus: String? { engine.focus.map { engine.slots[$0].container.name } }

    /// The latest moment the session has reached; commands stamped earlier apply at it.
    public var now: Timestamp { engine.now }

    /// The earliest frame or timer of any container; nil when nothing moves.
    public var nextDeadline: Timestamp? { engine.nextDeadline }

    /// A container's state at `time` from its curves' closed forms, evaluated on a copy: a
    /// read (`get`, a new subscription, a replay's sample) changes nothing, or live would no
    /// longer equal replay.
    public func state(of index: Int, at time: Timestamp) -> ScrollState {
        engine.sampled(container: index, at: time)
    }

    /// The value of `observation` in `state`, which the container at `index` published.
    public func value(of observation: ScrollObservation, container index: Int, in state: ScrollState) -> ObservationValue {
        engine.value(of: observation, container: index, in: state)
    }

    // MARK: Input and time

    @inline(never)  // rare, and its error's conversion stays out of input's way
    private mutating func reload(_ configuration: Configuration, client: Int, at time: Timestamp, initial: Bool, into published: inout Publications) throws(ProtocolError) {
        do {
            try reload(configuration, client: client, at: time, announcingNew: !initial, into: &published)
        } catch {
            throw ProtocolError(.invalidValue, error.description)
        }
    }

    /// An input event at its time, or at `now` if it is stamped earlier: the recording keeps
    /// the time it was applied at, so a replay applies it at the same instant.
    private mutating func input(_ event: ScrollEvent, into published: inout Publications) {
        if recorder != nil {
            var applied = event
            applied.time = Swift.max(event.time, engine.now)
            recorder!.record(applied)
        }
        engine.handle(event) { published.states.append($0) }
    }

    mutating func advance(to time: Timestamp, into published: inout Publications) {
        engine.advance(to: time) { published.states.append($0) }
    }

    /// Runs `body` on a container at `time` (after the frames due before it), keeping its frames
    /// in step, and publishes its state.
    mutating func update(container index: Int, at time: Timestamp, into published: inout Publications, _ body: (inout ScrollContainer, Timestamp) -> Void) {
        advance(to: time, into: &published)
        let time = engine.now
        _ = engine.update(container: index, at: time) { body(&$0, time) }
        published.states.append(engine.publish(container: index))
    }
}
