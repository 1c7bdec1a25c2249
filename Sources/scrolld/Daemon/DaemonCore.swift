import Logging
import NIOCore
import ScrollConfig
import ScrollInput
import ScrollLog
import ScrollModel
import ScrollProtocol

/// Everything the daemon knows, owned by its one event loop: the engine, the containers'
/// subscribers, the configuration in force. Input sources, clients and timers all call in on
/// that loop, so nothing here needs a lock.
///
/// Time: input carries CLOCK_MONOTONIC timestamps; while anything moves, one scheduled task
/// wakes the loop at the engine's next deadline (a frame or the wheel timer). When nothing
/// moves, no task is scheduled and the loop sleeps in epoll.
final class DaemonCore {
    let eventLoop: EventLoop
    let logger: Logger
    var engine: ScrollEngine
    var configuration: Configuration
    /// `[daemon]` as the daemon started with it: its socket, input and threads stay so.
    let daemonSettingsAtStart: DaemonSettings
    let configurationSource: ConfigurationFileSource
    /// Each container's subscribers and latest line, indexed like the engine's containers.
    var feeds: [Feed] = []
    var seqs: [Int] = []
    var clients: [ObjectIdentifier: Client] = [:]
    /// The latest state of each container produced during one engine call, published after it.
    var pending: [ScrollState?] = []
    /// The lines published for each container since they were last delivered to subscribers
    /// (one batch of input can publish several states; see `deliver`).
    var batches: [ByteBuffer?] = []
    var encodeBuffer: [UInt8] = []
    /// One encoder for all containers: its remembered opening and sizes are per container, so
    /// interleaved containers re-encode them, which costs no more than having no memory.
    var stateEncoder = StateEncoder()
    var deadlineTask: Scheduled<Void>?
    var scheduledDeadline: Timestamp?
    /// Called when device or client counts change (systemd STATUS=).
    var onStatusChange: () -> Void = {}
    /// The input devices in use, for `devices` and systemd STATUS.
    var devices: () -> [DeviceInfo] = { [] }
    /// With real input: runs its argument on the loop once all input read up to the given
    /// time has been applied (see LibinputSource.barrier); nil without real input.
    var inputBarrier: ((@escaping @Sendable (Timestamp) -> Void) -> Void)?
    var barrierPending = false
    /// Called with `[input]` after every reload, for the input source.
    var onInputSettings: (InputSettings) -> Void = { _ in }
    /// The file the configuration in force came from (nil: the built-in defaults).
    var fileInForce: String?
    /// How long a client's socket may stay full before the client is dropped.
    var stuckClientLimit = Client.defaultStuckLimit


    init(eventLoop: EventLoop, configuration: Configuration, source: ConfigurationFileSource, logger: Logger) throws {
        self.eventLoop = eventLoop
        self.logger = logger
        self.configuration = configuration
        daemonSettingsAtStart = configuration.daemon
        configurationSource = source
        engine = ScrollEngine(frameRate: configuration.daemon.frameRate)
        for settings in configuration.containers {
            let resolved = try configuration.resolve(container: settings.name)
            addContainer(ScrollContainer(name: settings.name, configuration: resolved, at: MonotonicClock.now()))
        }
    }

    @discardableResult
    func addContainer(_ container: ScrollContainer) -> Int {
        let index = engine.add(container)
        feeds.append(Feed(container: index, eventLoop: eventLoop))
        seqs.append(0)
        pending.append(nil)
        batches.append(nil)
        return index
    }

    var containerNames: [String] { engine.slots.map(\.container.name) }

    // MARK: Input and time

    /// Input events from any source, stamped on CLOCK_MONOTONIC, in order. Each event publishes
    /// its state (with its own seq) as always; a subscriber then receives all of them in one
    /// write, so when the daemon falls behind (input arrives in bigger batches) its cost per
    /// state falls instead of the backlog growing.
    func input(_ events: [ScrollEvent]) {
        eventLoop.assertInEventLoop()
        for event in events {
            engine.handle(event) { pending[$0.container] = $0.state }
            collectPending()
        }
        deliver()
        reschedule()
    }

    func input(_ event: ScrollEvent) {
        input([event])
    }

    /// Runs an operation on one container now (requests), then publishes and reschedules.
    func update(container index: Int, _ body: (inout ScrollContainer, Timestamp) -> Void) {
        let now = MonotonicClock.now()
        engine.advance(to: now) { pending[$0.container] = $0.state }
        let state = engine.update(container: index, at: now) { body(&$0, now) }
        pending[index] = state
        publishPending()
        reschedule()
    }

    /// Keeps exactly one wake-up scheduled: at the engine's next deadline, or none at all.
    func reschedule() {
        let next = engine.nextDeadline
        guard next != scheduledDeadline else { return }
        deadlineTask?.cancel()
        deadlineTask = nil
        scheduledDeadline = next
        guard let next else { return }
        deadlineTask = eventLoop.scheduleTask(deadline: MonotonicClock.deadline(next)) { [weak self] in
            self?.deadlineReached(next)
        }
    }

    private func deadlineReached(_ deadline: Timestamp) {
        // NIO runs every task it took as due in one tick, even one cancelled by an earlier task
        // of that tick (an input that moved the deadline). Such a superseded wake-up must do
        // nothing: it would otherwise run the newer deadline before its time, stamp every input
        // until then with that future frame time, and leave two wake-ups chasing each other.
        guard deadline == scheduledDeadline else { return }
        scheduledDeadline = nil
        deadlineTask = nil
        // Input stamped before this deadline may not have reached the loop yet: let the input
        // thread hand over everything first (its events run the frames before them exactly as
        // a replay would), then run what is still due.
        if let inputBarrier {
            guard !barrierPending else { return }
            barrierPending = true
            let core = NIOLoopBound(self, eventLoop: eventLoop)
            inputBarrier { readTime in core.value.barrierPassed(readTime) }
            return
        }
        // NIO runs a task only once its deadline has passed on this same clock.
        runDeadlines(until: max(MonotonicClock.now(), deadline))
    }

    private func barrierPassed(_ readTime: Timestamp) {
        barrierPending = false
        runDeadlines(until: readTime)
    }

    /// Runs every frame and timer due by `time` (a late wake-up runs them all, each with its own
    /// timestamp; subscribers get the latest).
    private func runDeadlines(until time: Timestamp) {
        if let next = engine.nextDeadline, next <= time {
            engine.advance(to: time) { pending[$0.container] = $0.state }
            publishPending()
        }
        reschedule()
    }

    // MARK: Publishing

    /// Publishes each changed container's state and delivers it at once.
    func publishPending() {
        collectPending()
        deliver()
    }

    /// Publishes each changed container's state: the next seq, encoded once, added to the
    /// container's batch.
    func collectPending() {
        for index in pending.indices {
            guard let state = pending[index] else { continue }
            pending[index] = nil
            seqs[index] += 1
            guard !feeds[index].subscriptions.isEmpty else { continue }
            encodeBuffer.removeAll(keepingCapacity: true)
            stateEncoder.encode(state, container: engine[index].name, seq: seqs[index], into: &encodeBuffer)
            encodeBuffer.append(UInt8(ascii: "\n"))
            if batches[index] == nil { batches[index] = ByteBuffer() }
            batches[index]!.writeBytes(encodeBuffer)
        }
    }

    /// Hands each container's batch to its subscribers: the same bytes to every one, the batch's
    /// last line being the latest state (what a slow or rate-limited client gets instead).
    /// The batch is wrapped for NIO once, not once per subscriber.
    func deliver() {
        var now: NIODeadline?
        for index in batches.indices {
            guard let batch = batches[index] else { continue }
            batches[index] = nil
            let feed = feeds[index]
            let last = batch.readableBytesView.dropLast().lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? batch.readerIndex
            feed.latest = batch.getSlice(at: last, length: batch.writerIndex - last)!
            let data = NIOAny(batch)
            // One clock read per delivery, for the rate-limited subscriptions.
            let time = now ?? .now()
            now = time
            // A copy of the list: a failed write closes its client, which changes it.
            let subscriptions = feed.subscriptions
            for subscription in subscriptions { subscription.offer(data, now: time) }
        }
    }

    /// The container's current state, evaluated now (for `get` and `subscribe`).
    ///
    /// Evaluated on a copy of the engine: sampling runs the frames due by now and moves the
    /// clock to now, and a read must change nothing. On the engine itself, input stamped
    /// before now but not yet delivered (the input thread's latency, a busy loop behind a
    /// replay) would then be applied late, at now, changing its velocity and fling for every
    /// subscriber, and live would no longer equal replay.
    func currentState(_ index: Int) -> ScrollState {
        var copy = engine
        return copy.sample(container: index, at: max(MonotonicClock.now(), engine.now))
    }

    // MARK: Clients

    func connected(_ client: Client) {
        clients[client.id] = client
        onStatusChange()
    }

    func disconnected(_ client: Client) {
        client.cancelAll()
        clients[client.id] = nil
        for feed in feeds {
            feed.subscriptions.removeAll { $0.client === client }
        }
        onStatusChange()
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

    /// Puts a whole new configuration in force: containers it names are created or updated
    /// at once; containers created by clients and not in the file stay as they are.
    func apply(_ new: Configuration) throws {
        var new = new
        new.keepContainers(from: configuration)
        var resolved: [(String, ContainerConfiguration)] = []
        for settings in new.containers {
            resolved.append((settings.name, try new.resolve(container: settings.name)))
        }
        configuration = new
        engine.frameRate = new.daemon.frameRate
        onInputSettings(new.input)
        let now = MonotonicClock.now()
        for (name, container) in resolved {
            if let index = engine.index(of: name) {
                guard engine[index].configuration != container else { continue }
                update(container: index) { $0.configure(container, at: $1) }
            } else {
                let index = addContainer(ScrollContainer(name: name, configuration: container, at: now))
                pending[index] = engine[index].state
            }
        }
        publishPending()
        reschedule()
    }
}
