import ScrollConfig
import ScrollModel

/// The one computation behind `scrolld run` and `scrolld replay` (docs/design.md §17): an ordered
/// stream of timestamped commands — input events, requests, configuration reloads, the passing
/// of time — turned into published states, each numbered by its container's `seq`.
///
/// The live daemon and the replayer hold a session each and feed it the same kinds of
/// commands; neither numbers, clamps time or applies a request on its own, so a replay of a
/// recorded session prints exactly what the daemon published. A session does no I/O and reads
/// no clock: the caller says when each command happens, and what it hands in, in that order,
/// is everything that decides the output.
public struct Session: Sendable {
    /// The model: containers, frames and timers on the commands' clock.
    public internal(set) var engine: ScrollEngine
    /// The configuration in force: the file's (or a replay's options), plus every `configure`.
    public internal(set) var configuration: Configuration
    /// The number of states each container has published; the next one gets one more.
    public internal(set) var seqs: [Int] = []
    /// The containers' names, by index (read on every publication: kept apart from the engine,
    /// whose containers are large to read through).
    public internal(set) var names: [String] = []
    /// Whether each container is paused (kept beside the engine's own flag so that a
    /// publication can say so while the engine runs).
    public internal(set) var paused: [Bool] = []
    /// Set to record every command that changes state as event log lines (docs/design.md §17).
    public var recorder: SessionRecorder?
    /// The containers the configuration file defines (at start or the last reload): they
    /// cannot be removed by a request.
    public internal(set) var fileContainers: Set<String>

    /// A session with the containers of `configuration` (only those in `containers`, when
    /// given: a replay of one container needs no other), at rest at `time`.
    public init(configuration: Configuration, containers only: [String]? = nil, at time: Timestamp) throws(ConfigurationError) {
        self.configuration = configuration
        fileContainers = Set(configuration.containers.map(\.name))
        engine = ScrollEngine(frameRate: configuration.daemon.frameRate)
        engine.setShapingRules(configuration.input.shapingRules)
        for settings in configuration.containers where only?.contains(settings.name) ?? true {
            let resolved = try configuration.resolve(container: settings.name)
            add(ScrollContainer(name: settings.name, configuration: resolved, at: time))
        }
    }

    @discardableResult
    mutating func add(_ container: ScrollContainer) -> Int {
        let index = engine.add(container)
        seqs.append(0)
        names.append(container.name)
        paused.append(false)
        return index
    }

    /// The index of the container called `name`, byte for byte: a name that is only
    /// canonically equivalent (`Cafe\u{301}` for `Caf\u{e9}`) names no container, so every
    /// reply about a container carries the very bytes its client sent (docs/design.md, "Limits").
    public func index(of name: String) -> Int? {
        guard let index = names.firstIndex(of: name), names[index].utf8.elementsEqual(name.utf8) else { return nil }
        return index
    }

    /// The name of a container whose name is canonically equivalent to `name` but spelled
    /// with other bytes; nil when there is none.
    public func otherSpelling(of name: String) -> String? {
        guard let index = names.firstIndex(of: name), !names[index].utf8.elementsEqual(name.utf8) else { return nil }
        return names[index]
    }

    /// The focused container's name (docs/design.md §14), nil: none. A removed container takes the
    /// focus with it.
    public var focus: String? { engine.focus.map { names[$0] } }

    /// The latest moment the session has reached; commands stamped earlier apply at it.
    public var now: Timestamp { engine.now }

    // MARK: Commands

    /// Applies an input event at its time, or at `now` if it is stamped earlier (live, input
    /// can reach the loop after a request or a frame that came later): the recording keeps the
    /// time it was applied at, so a replay applies it at the same instant.
    public mutating func input(_ event: ScrollEvent, _ publish: (Publication) -> Void) {
        if recorder != nil {
            var applied = event
            applied.time = Swift.max(event.time, engine.now)
            recorder!.record(applied)
        }
        engine.handle(event) { update in
            publish(Self.publication(of: update, seqs: &seqs, paused: paused))
        }
    }

    /// Runs every frame and timer due by `time`, publishing each; the session is at `time`.
    public mutating func advance(to time: Timestamp, _ publish: (Publication) -> Void) {
        engine.advance(to: time) { update in
            publish(Self.publication(of: update, seqs: &seqs, paused: paused))
        }
    }

    /// Runs every frame and timer due by `time`, publishing each; the session stays at the last
    /// of them (ScrollEngine.runDeadlines(dueBy:_:)), so input stamped after it that arrives
    /// later still applies, and is recorded, at its own time.
    public mutating func runDeadlines(dueBy time: Timestamp, _ publish: (Publication) -> Void) {
        engine.runDeadlines(dueBy: time) { update in
            publish(Self.publication(of: update, seqs: &seqs, paused: paused))
        }
    }

    /// An engine update as published: the container's next `seq` (counted in `seqs`).
    /// Static, as the engine's callbacks run while the engine itself is being changed.
    private static func publication(of update: ScrollEngine.Update, seqs: inout [Int], paused: [Bool]) -> Publication {
        seqs[update.container] += 1
        return Publication(container: update.container, seq: seqs[update.container], state: update.state, cause: update.cause, paused: paused[update.container])
    }

    /// The earliest frame or timer of any container; nil when nothing moves.
    public var nextDeadline: Timestamp? { engine.nextDeadline }

    /// A container's state at `time` from its curves' closed forms, evaluated on a copy: a
    /// read (`get`, a new subscription) changes nothing, or live would no longer equal replay.
    public func sample(container index: Int, at time: Timestamp) -> ScrollState {
        engine.sampled(container: index, at: time)
    }

    /// ``sample(container:at:)`` on the session itself, advancing it (replay's `--every` and
    /// `--at`, which publish nothing else).
    public mutating func sampleAdvancing(container index: Int, at time: Timestamp) -> ScrollState {
        engine.sample(container: index, at: time)
    }

    /// Publishes the container's state after something was done to it at the current time.
    mutating func publishState(of index: Int, _ publish: (Publication) -> Void) {
        seqs[index] += 1
        publish(Publication(container: index, seq: seqs[index], state: engine.slots[index].container.state, cause: .input, paused: paused[index]))
    }

    /// Runs `body` on a container at `time` (after the frames due before it), keeping its frames
    /// in step, and publishes its state.
    mutating func update(container index: Int, at time: Timestamp, _ publish: (Publication) -> Void, _ body: (inout ScrollContainer, Timestamp) -> Void) {
        advance(to: time, publish)
        let time = engine.now
        let state = engine.update(container: index, at: time) { body(&$0, time) }
        seqs[index] += 1
        publish(Publication(container: index, seq: seqs[index], state: state, cause: .input, paused: paused[index]))
    }
}
