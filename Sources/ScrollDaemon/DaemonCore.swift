import Logging
import NIOCore
import ScrollConfig
import ScrollDesktop
import ScrollInput
import ScrollLog
import ScrollModel
import ScrollProtocol
import ScrollSession

/// The daemon's logic, owned by its one event loop: input sources, clients and timers all
/// call in on that loop, so nothing here needs a lock.
///
/// A coordinator: every change to the containers is one ``Command`` applied to the session
/// (``execute(_:)``), the same computation `replay` runs; what it published goes to the
/// ``Publisher`` and the restart store, and after each turn of work ``finish()`` delivers it
/// and has the ``DeadlineScheduler`` wake the loop at the next frame, or never when nothing
/// moves. Requests are the ``RequestHandler``'s, connections and their leases
/// ``Connections``', the status line the ``StatusReporter``'s.
package final class DaemonCore {
    package let eventLoop: EventLoop
    package let logger: Logger
    /// The containers and everything applied to them.
    package private(set) var session: Session
    let publisher: Publisher
    package let connections = Connections()
    package private(set) var scheduler: DeadlineScheduler!
    package private(set) var status: StatusReporter!
    private(set) var requests: RequestHandler!
    /// The configuration file, and what of it stays as started.
    package let configurationFile: ConfigurationReloader
    /// Where reloads read and parse the configuration file: off the loop.
    let background: any BackgroundWork
    /// `scrolld <version>`, for `welcome`.
    let serverName: String
    /// A random id chosen at each start (`welcome`'s `instance`, docs/design.md §19).
    package internal(set) var instance: String
    /// Where the session is kept for a restart (docs/design.md §16); nil: nowhere (not under
    /// systemd).
    package internal(set) var store: RestartStore?
    /// A replayed log waiting for the first client to connect (`run --replay-start
    /// first-client`), started then.
    package var startsWithFirstClient: ReplaySource?
    /// The log served while the seat has no usable input device (`run --fallback-replay`).
    package var fallback: FallbackDemo?
    /// What the desktops found say (docs/design.md §23).
    package var desktops = DesktopFollower()
    /// Where the session's recording goes (`run --record`, `daemon.record`), if anywhere.
    private var recording: RecordingWriter
    /// How many commands other than input and time have been applied (or tried): the
    /// containers' settings are as the last reload left them while it has not moved
    /// (``ConfigurationReloader``).
    private(set) var commandsChangingContainers = 0

    /// A core serving `configuration`, read from `file` (nil: the built-in defaults).
    package init(
        eventLoop: EventLoop, configuration: Configuration, from file: String? = nil, source: ConfigurationFileSource,
        background: any BackgroundWork = InPlace(), serverName: String, logger: Logger
    ) throws {
        self.eventLoop = eventLoop
        self.background = background
        self.logger = logger
        self.serverName = serverName
        instance = DaemonInstance.random()
        recording = RecordingWriter(logger: logger)
        configurationFile = ConfigurationReloader(source: source, startedWith: configuration, from: file)
        session = try Session(configuration: configuration, at: eventLoop.timestamp)
        publisher = Publisher(eventLoop: eventLoop)
        publisher.addContainers(of: session.engine)
        scheduler = DeadlineScheduler(eventLoop: eventLoop, target: self, logger: logger)
        status = StatusReporter(eventLoop: eventLoop, counts: self)
        requests = RequestHandler(core: self)
    }

    // MARK: Commands

    /// Applies `command` to the session and hands what it published to the restart store and
    /// the publisher; records for containers it created are made. Nothing is delivered until
    /// ``finish()``.
    @discardableResult
    func execute(_ command: Command) throws(ProtocolError) -> Publications {
        switch command {
        case .input, .advance, .runDeadlines: break
        default: commandsChangingContainers &+= 1
        }
        let published = try session.apply(command)
        if let store {
            for publication in published { store.published(publication) }
        }
        publisher.collect(published)
        for (container, index) in publisher.addContainers(of: session.engine) where publisher.waiting[container.name] != nil {
            requests.created(container, at: index)
        }
        return published
    }

    /// Delivers what the commands since the last call published, writes the recording, and
    /// schedules the next wake-up.
    func finish() {
        publisher.deliver()
        if publisher.hasObserved { publisher.deliverObservations(from: self) }
        recording.write(from: &session)
        scheduler.reschedule(at: session.nextDeadline)
    }

    /// Input events from any source, stamped on CLOCK_MONOTONIC, in order. Each state the
    /// session publishes is encoded once; a subscriber then receives all of a batch's states in
    /// one write, so when the daemon falls behind (input arrives in bigger batches) its cost per
    /// state falls instead of the backlog growing.
    package func input(_ events: [ScrollEvent]) {
        eventLoop.assertInEventLoop()
        for event in events {
            if event.time < session.now, event.isInput { scheduler.arrivedLate(event, now: session.now) }
            // Input never fails.
            _ = try? execute(.input(event))
        }
        finish()
    }

    package func input(_ event: ScrollEvent) { input([event]) }

    /// Input from the seat's devices; `devicesPresent`, when the devices changed, whether any is
    /// left. The fallback demo ends before an arrival goes in and comes back after the last
    /// device's removal.
    package func seatInput(_ events: [ScrollEvent], devicesPresent present: Bool?) {
        if present == true, let fallback, fallback.isServing {
            let arrived = events.lazy.compactMap { if case .deviceAdded(let name, _) = $0.kind { name } else { nil } }.first
            fallback.end(because: "\(arrived.map(DeviceNameText.quoted) ?? "an input device") arrived")
        }
        input(events)
        if present == false { fallback?.serve(because: "the last input device left") }
    }

    /// The container called `name`, byte for byte, with its position in the session.
    func container(named name: String, id requestID: RequestID? = nil) throws(ProtocolError) -> (index: Int, published: PublishedContainer) {
        guard let index = session.index(of: name), let published = publisher[session.engine.slots[index].id] else {
            throw .unknownContainer(name, id: requestID)
        }
        return (index, published)
    }

    /// The record of the container called `name`, if there is one.
    func record(named name: String) -> PublishedContainer? {
        session.index(of: name).flatMap { publisher[session.engine.slots[$0].id] }
    }

    /// Reads the configuration file again, off the loop, and puts it in force; a bad one is
    /// reported and the last good one stays (``ConfigurationReloader/reload(into:)``).
    package func reload() -> EventLoopFuture<ReloadResult> {
        configurationFile.reload(into: self)
    }

    /// Whether the last reload's result was the one before's: a client's run of reloads of one
    /// file, refused or not, is logged once.
    package var reloadRepeated: Bool { configurationFile.repeated }

    /// Records everything the session applies from now on into `file` (docs/design.md §17),
    /// after `header`.
    package func startRecording(to file: any RecordingSink, header: EventLogHeader) {
        session.startRecording(SessionRecorder(header: header), at: eventLoop.timestamp)
        recording.start(file, limit: session.configuration.daemon.recordLimitMiB * 1_048_576)
        recording.write(from: &session)
    }

    /// Puts `store` in charge of keeping the session (docs/design.md §16); `taken` is what a
    /// previous process of it left there (nil: nothing, or it was refused), and `connections`
    /// the numbers of the connections whose sockets came back with it. Returns the numbers it
    /// refused (no connection has them): their sockets are to be closed and forgotten.
    @discardableResult
    package func keep(in store: RestartStore, restoring taken: (snapshot: RestartSnapshot, slots: [SnapshotMemory.Slot?])?, connections numbers: [Int]) -> [Int] {
        self.store = store
        store.core = self
        return store.takeBack(taken, connections: numbers)
    }

    // MARK: What the edges read

    /// The input devices in use: the input source's, then those of the log served beside it
    /// (`run --fallback-replay`, once no device was usable), as `run --replay` lists its log's.
    package var devices: [DeviceInfo] {
        let input = scheduler.input?.devices ?? []
        // The input ended: the replay is the input source now, listed once.
        guard let replay = scheduler.replay, replay !== scheduler.input else { return input }
        return input + replay.devices
    }

    /// Whether the input devices are read now (docs/design.md §15).
    package var inputState: InputState { scheduler.input?.inputState ?? .active }

    package func statusChanged() { status.changed() }
}

extension DaemonCore: DeadlineTarget {
    /// Runs every frame and timer due by `time` (a late wake-up runs them all, each with its own
    /// timestamp, each published).
    func runDeadlines(until time: Timestamp) {
        if let next = session.nextDeadline, next <= time {
            // Not `.advance(to: time)`: `time` is when the input thread's barrier read the
            // clock, and an event the kernel stamped just before it may reach the loop after
            // it; the session stays at the last frame, so that event still applies at its own
            // time.
            _ = try? execute(.runDeadlines(dueBy: time))
        }
        finish()
    }
}

extension DaemonCore: ObservationSource {
    func value(of observation: ScrollObservation, container id: ContainerID, in state: ScrollState) -> ObservationValue? {
        session.engine.index(of: id).map { session.value(of: observation, container: $0, in: state) }
    }
}

extension DaemonCore: StatusCounts {
    var deviceCount: Int { devices.count }
    var clientCount: Int { connections.clients.count }
}

extension DaemonCore {
    /// How many subscriptions and observations wait for their containers (docs/design.md §20),
    /// over every connection.
    package var waitingCount: Int { publisher.waiting.values.reduce(0) { $0 + $1.count } }
}
