import Logging
import NIOCore
import ScrollConfig
import ScrollInput
import ScrollLog
import ScrollModel
import ScrollProtocol
import ScrollSession

/// Everything the daemon knows, owned by its one event loop: the engine, the containers'
/// subscribers, the configuration in force. Input sources, clients and timers all call in on
/// that loop, so nothing here needs a lock.
///
/// Time: input carries CLOCK_MONOTONIC timestamps; while anything moves, one scheduled task
/// wakes the loop at the engine's next deadline (a frame or the wheel timer). When nothing
/// moves, no task is scheduled and the loop sleeps in epoll.
package final class DaemonCore {
    package let eventLoop: EventLoop
    package let logger: Logger
    /// The containers and everything applied to them: the same computation `replay` runs.
    package var session: Session
    /// `[daemon]` as the daemon started with it: its socket, input and threads stay so.
    let daemonSettingsAtStart: DaemonSettings
    let configurationSource: ConfigurationFileSource
    /// Each container's subscribers and latest line, indexed like the session's containers.
    var feeds: [Feed] = []
    package var clients: [ObjectIdentifier: Client] = [:]
    /// Connections open now, greeted or not (refused ones until they close).
    var openConnections = 0
    /// Refused connections lingering before their close (`ClientHandler`).
    var lingering = 0
    /// The most connections served at once; more are refused with `too_large`. The daemon's
    /// POSIX side sets it from the descriptors it may open (docs/design.md, "Limits").
    package var connectionLimit = DaemonCore.defaultConnectionLimit
    package static let defaultConnectionLimit = 4096
    /// The message of the last refused connection, logged once until one is accepted.
    var lastRefusal: String?
    /// The number the next connection gets (docs/design.md §17's `client`; 0 is the daemon itself).
    var nextClientNumber = 1
    /// Containers created with `"owned": true`, by name, with their connection's number.
    var owners: [String: Int] = [:]
    /// The connection whose `pause` is in force on a container, by name (undone when it closes).
    var pausedBy: [String: Int] = [:]
    /// The connection whose `focus` is in force (undone when it closes, docs/design.md §19); nil
    /// when there is no focus.
    var focusedBy: Int?
    /// States published during the current command to containers somebody observes, evaluated
    /// once the command is done (`deliverObservations`).
    var observed: [Publication] = []
    /// Set while `deliver()` or `deliverObservations()` hands out what a command published.
    var delivering = false
    /// A random id chosen at each start (`welcome`'s `instance`, docs/design.md §19).
    package internal(set) var instance: String
    /// Where the session is kept for a restart (docs/design.md §16); nil: nowhere (not under
    /// systemd).
    package internal(set) var store: SessionStore?
    /// The lines published for each container since they were last delivered to subscribers
    /// (one batch of input can publish several states; see `deliver`).
    var pending = PendingBatches()
    /// The one wake-up scheduled for the session's next deadline, and that deadline.
    var deadlineTask: NIOScheduledCallback?
    var scheduledDeadline: Timestamp?
    /// Where the session's recording goes (`run --record`, `daemon.record`), if anywhere.
    var recording: (any RecordingSink)?
    /// Hears when device or client counts change (systemd STATUS=).
    package weak var statusObserver: (any DaemonStatusObserver)?
    /// The status messages that may go at once (see `statusChanged`), and the one waiting for
    /// the bucket when it is empty.
    var statusBucket = TokenBucket(rate: 10)
    var statusPending: Scheduled<Void>?
    /// The input source frames wait for (see `InputSource`); nil: none, or it ended.
    package var input: (any InputSource)?
    var barrierPending = false
    /// Input events that reached the loop after a frame (or request) they predate.
    package internal(set) var lateInputs = 0
    /// A replay source feeding the loop besides real input (the demo fallback): before frames
    /// run, its events due before them go in.
    package weak var replay: ReplaySource?
    /// The file the configuration in force came from (nil: the built-in defaults).
    package var fileInForce: String?
    /// How long a client's socket may stay full before the client is dropped.
    package var stuckClientLimit = Client.defaultStuckLimit
    /// `scrolld <version>`, for `welcome`.
    let serverName: String

    package init(eventLoop: EventLoop, configuration: Configuration, source: ConfigurationFileSource, serverName: String, logger: Logger) throws {
        self.eventLoop = eventLoop
        self.logger = logger
        self.serverName = serverName
        var generator = SystemRandomNumberGenerator()
        instance = (0..<2).map { _ in
            let word = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - word.count) + word
        }.joined()
        daemonSettingsAtStart = configuration.daemon
        configurationSource = source
        session = try Session(configuration: configuration, at: eventLoop.timestamp)
        syncFeeds()
    }

    /// The input devices in use.
    package var devices: [DeviceInfo] { input?.devices ?? [] }

    /// Whether the input devices are read now (docs/design.md §15).
    package var inputState: InputState { input?.inputState ?? .active }

    /// Tells the status observer the current counts: at once, up to ten times a second (a
    /// bucket of ten that refills at ten a second); beyond that once when the bucket has one
    /// again, with the counts as they are then. Clients connecting and closing by the hundred a
    /// second (the overload mix) cost systemd a `STATUS=` message each, and the loop three
    /// system calls each, for a line no one reads that fast; at a normal pace every change is
    /// told at once and no timer is left behind to wake an idle daemon.
    package func statusChanged() {
        guard let statusObserver else { return }
        if let wait = statusBucket.take(at: eventLoop.now) {
            guard statusPending == nil else { return }
            statusPending = eventLoop.assumeIsolated().scheduleTask(in: wait) { [weak self] in
                guard let self else { return }
                statusPending = nil
                statusBucket.force(at: eventLoop.now)
                self.statusObserver?.statusChanged(devices: devices.count, clients: clients.count)
            }
            return
        }
        statusObserver.statusChanged(devices: devices.count, clients: clients.count)
    }

    var configuration: Configuration { session.configuration }

    /// One feed per container: containers created since the last call get theirs.
    func syncFeeds() {
        while feeds.count < session.names.count {
            feeds.append(Feed(container: feeds.count, name: session.names[feeds.count], eventLoop: eventLoop))
            pending.addContainer()
        }
    }

    var containerNames: [String] { session.names }

    // MARK: Input and time

    /// Applies a state-changing request from `client` now, then publishes and reschedules.
    func perform(_ operation: Operation, from client: Client) throws(ProtocolError) {
        defer {
            syncFeeds()
            deliver()
            deliverObservations()
            reschedule()
        }
        let removing: Int?
        if case .remove(let name) = operation { removing = session.index(of: name) } else { removing = nil }
        let existed = operation.container.map { session.index(of: $0) != nil } ?? true
        try session.perform(operation, client: client.number, at: eventLoop.timestamp) { collect($0) }
        switch operation {
        case .configure(let name, _, _, true) where !existed:
            owners[name] = client.number
        case .pause(let name):
            pausedBy[name] = client.number
        case .resume(let name):
            pausedBy[name] = nil
        case .focus(let name):
            focusedBy = name == nil ? nil : client.number
        case .remove:
            if let removing { containerRemoved(at: removing) }
            if session.focus == nil { focusedBy = nil }
        default:
            break
        }
    }

    /// Writes what the session recorded since the last call to the recording's file.
    func writeRecording() {
        guard let recording, let lines = session.recorder?.takePending(), !lines.isEmpty else { return }
        if let failure = recording.write(lines) {
            logger.error("recording stopped: cannot write \(recording.path): \(failure)")
            session.recorder = nil
            self.recording = nil
        }
    }

    // MARK: Publishing

    /// Encodes a published state once, into its container's batch, if anyone subscribes.
    ///
    /// Called from inside the session's commands, so it reads nothing of the session: a
    /// container created by the command has no feed yet, and no subscriber either.
    func collect(_ publication: Publication) {
        store?.published(publication)
        let index = publication.container
        guard index < feeds.count else { return }
        let feed = feeds[index]
        if !feed.observers.isEmpty { observed.append(publication) }
        guard !feed.subscriptions.isEmpty else { return }
        pending.add(publication, name: feed.name)
    }

    /// Hands each container's batch to its subscribers: the same bytes to every one, the batch's
    /// last line being the latest state (what a slow or rate-limited client gets instead).
    /// The batch is wrapped for NIO once, not once per subscriber.
    func deliver() {
        delivering = true
        defer { delivering = false }
        var now: NIODeadline?
        for index in 0..<pending.count {
            guard let batch = pending.take(index) else { continue }
            let feed = feeds[index]
            feed.latest = batch.latest
            let lines = batch.lines
            let data = NIOAny(lines)
            // One clock read per delivery, for the rate-limited subscriptions.
            let time = now ?? eventLoop.now
            now = time
            // A copy of the list: a failed write closes its client, which changes it.
            let subscriptions = feed.subscriptions
            for subscription in subscriptions { subscription.offer(lines, wrapped: data, now: time) }
        }
    }

    /// The container's current state, evaluated now (for `get` and `subscribe`), on a copy:
    /// input stamped before now but not yet delivered (the input thread's latency, a busy loop
    /// behind a replay) must still apply at its own time.
    func currentState(_ index: Int) -> ScrollState {
        session.sample(container: index, at: eventLoop.timestamp)
    }

    // MARK: Clients

    func connected(_ client: Client) {
        clients[client.id] = client
        lastRefusal = nil
        storeConnection(client)
        statusChanged()
    }

    func disconnected(_ client: Client) {
        client.cancelAll()
        clients[client.id] = nil
        forgetConnection(client)
        for feed in feeds {
            feed.subscriptions.removeAll { $0.client === client }
            feed.observers.removeAll { $0.client === client }
        }
        // A write that fails while states or observations are being handed out closes its
        // connection right there, inside that loop: what the connection leaves behind (an
        // owned container removed, a pause or focus undone) changes containers and feeds the
        // loop is walking, so it waits until the loop is done.
        if delivering {
            eventLoop.assumeIsolated().execute { [self] in
                undo(for: client)
                statusChanged()
            }
            return
        }
        undo(for: client)
        statusChanged()
    }

    /// A subscription replaces the client's earlier one to the same container in place, so
    /// subscribers keep their order.
    func subscribe(_ client: Client, container index: Int, rate: Double?) {
        let feed = feeds[index]
        let subscription = client.subscribe(to: feed, rate: rate)
        if let position = feed.subscriptions.firstIndex(where: { $0.client === client }) {
            feed.subscriptions[position] = subscription
        } else {
            feed.subscriptions.append(subscription)
        }
    }

    func unsubscribe(_ client: Client, container index: Int?) {
        for feed in feeds where index == nil || index == feed.container {
            feed.subscriptions.removeAll { $0.client === client }
            client.unsubscribe(from: feed.container)
        }
    }

    // MARK: Configuration

    /// Puts a whole new configuration in force (a reload): containers it names are created or
    /// updated at once; containers created by clients and not in it stay as they are.
    func apply(_ new: Configuration, client: Int = 0) throws(ConfigurationError) {
        try session.reload(new, client: client, at: eventLoop.timestamp) { collect($0) }
        // A container the file now names is the file's: no connection's close removes it.
        for name in owners.keys where session.fileContainers.contains(name) { owners[name] = nil }
        input?.apply(new.input)
        syncFeeds()
        deliver()
        deliverObservations()
        reschedule()
        sessionChanged()
    }
}

extension DaemonCore {
    /// Records everything the session applies from now on into `file` (docs/design.md §17), after
    /// `header`.
    package func startRecording(to file: any RecordingSink, header: EventLogHeader) {
        session.startRecording(SessionRecorder(header: header), at: eventLoop.timestamp)
        recording = file
        writeRecording()
    }
}
