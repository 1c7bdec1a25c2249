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
    let configurationSource: ConfigurationFileSource
    /// Subscribers per container, indexed like the engine's containers.
    var subscribers: [[Client]] = []
    var seqs: [Int] = []
    var clients: [ObjectIdentifier: Client] = [:]
    /// The latest state of each container produced during one engine call, published after it.
    var pending: [ScrollState?] = []
    var encodeBuffer: [UInt8] = []
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


    init(eventLoop: EventLoop, configuration: Configuration, source: ConfigurationFileSource, logger: Logger) throws {
        self.eventLoop = eventLoop
        self.logger = logger
        self.configuration = configuration
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
        subscribers.append([])
        seqs.append(0)
        pending.append(nil)
        return index
    }

    var containerNames: [String] { engine.slots.map(\.container.name) }

    // MARK: Input and time

    /// An input event from any source, stamped on CLOCK_MONOTONIC.
    func input(_ event: ScrollEvent) {
        eventLoop.assertInEventLoop()
        engine.handle(event) { pending[$0.container] = $0.state }
        publishPending()
        reschedule()
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

    /// Encodes each changed container's state once and hands the same bytes to every
    /// subscriber of it.
    func publishPending() {
        for index in pending.indices {
            guard let state = pending[index] else { continue }
            pending[index] = nil
            seqs[index] += 1
            guard !subscribers[index].isEmpty else { continue }
            let bytes = encode(state, container: index, seq: seqs[index])
            let data = NIOAny(bytes)
            let name = engine[index].name
            for client in subscribers[index] { client.offer(bytes, data, container: name) }
        }
    }

    func encode(_ state: ScrollState, container index: Int, seq: Int) -> ByteBuffer {
        encodeBuffer.removeAll(keepingCapacity: true)
        StateEncoder().encode(state, container: engine[index].name, seq: seq, into: &encodeBuffer)
        encodeBuffer.append(UInt8(ascii: "\n"))
        return ByteBuffer(bytes: encodeBuffer)
    }

    /// The container's current state, evaluated now, as a line.
    func currentState(_ index: Int) -> ScrollState {
        engine.sample(container: index, at: max(MonotonicClock.now(), engine.now))
    }

    // MARK: Clients

    func connected(_ client: Client) {
        clients[client.id] = client
        onStatusChange()
    }

    func disconnected(_ client: Client) {
        client.cancelAll()
        clients[client.id] = nil
        for index in subscribers.indices {
            subscribers[index].removeAll { $0 === client }
        }
        onStatusChange()
    }

    func subscribe(_ client: Client, container index: Int, rate: Double?) {
        let name = engine[index].name
        if !subscribers[index].contains(where: { $0 === client }) { subscribers[index].append(client) }
        client.subscriptions[name]?.flush?.cancel()
        client.subscriptions[name] = Client.Subscription(rate: rate)
    }

    func unsubscribe(_ client: Client, container index: Int?) {
        for i in subscribers.indices where index == nil || index == i {
            subscribers[i].removeAll { $0 === client }
            client.subscriptions[engine[i].name]?.flush?.cancel()
            client.subscriptions[engine[i].name] = nil
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
