import Logging
import NIOConcurrencyHelpers
import ScrollPOSIX
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Every message of the daemon to the service manager (sd_notify(3): `READY=1`, `STATUS=…`,
/// `WATCHDOG=1`, `STOPPING=1`, and the file descriptor store's `FDSTORE=1` and `FDSTOREREMOVE=1`,
/// docs/design.md §16), sent so that no thread that serves clients ever waits for the manager.
///
/// The notify socket is a datagram socket: while the manager's receive queue is full (a frozen or
/// a slow manager) a send waits until it reads. Sent on the loop, the store's message for every
/// connection opened or closed would hold every client behind a slow manager, and a manager
/// that reads nothing would hold the daemon for good (docs/decisions.md, "The service
/// manager's messages off the loop").
///
/// So a message goes at once only when nothing waits before it and the manager has room: one
/// `sendmsg(2)` that never waits (`MSG_DONTWAIT`), made by the caller, so that a connection's
/// socket is in the store before its client hears anything, and no thread wakes. Otherwise it is
/// queued (``NotificationQueue``: bounded, in order, no remove lost; a store with its own
/// duplicate of the descriptor) for the thread `scrolld-notify`, which sleeps on a condition
/// variable while nothing waits and in poll(2) while the manager's queue is full
/// (``NotificationSocket``), and sends in order until the queue is empty again.
///
/// At a clean stop (``finish()``), what waits is still sent — the removes of the connections
/// closed at the stop among it — and the thread is joined; a manager that takes nothing for
/// ``stopGrace`` seconds is given up on (what waits is dropped) so that the stop stays within
/// the unit's `TimeoutStopSec=10`.
final class NotificationSender: Sendable {
    /// Stores that may wait for the manager at once (systemd's own queue holds 512 messages):
    /// past it a connection is not kept for a restart, which the log says once. Each waiting
    /// store holds a descriptor (its duplicate), so this also bounds what a slow manager costs
    /// the descriptor table.
    static let storeLimit = 512
    /// How long a clean stop waits for the manager to take what is left, in seconds.
    static let stopGrace = 5.0

    private enum Phase: Equatable {
        /// Nothing waits: the thread sleeps (or sends the message it took last).
        case idle
        /// Messages wait, or the end was asked for.
        case ready
        /// The thread took its last message; nothing is queued any more.
        case ended
    }

    /// What the lock guards; and the socket, which is the thread's while it sends a message
    /// it took (`sending`), and whoever holds the lock's otherwise.
    private final class State: @unchecked Sendable {
        var queue = NotificationQueue(storeLimit: NotificationSender.storeLimit)
        let socket: NotificationSocket
        var sending = false
        var thread: JoinableThread?
        var stopping = false
        var ended = false
        /// Whether a connection not kept was logged already (once is enough).
        var warned = false

        init(socket: NotificationSocket) {
            self.socket = socket
        }

        var phase: Phase { ended ? .ended : queue.isEmpty && !stopping ? .idle : .ready }
        /// Whether a message may go at once: nothing waits before it.
        var isClear: Bool { queue.isEmpty && !sending && socket.sendsWithoutWaiting }
    }

    let logger: Logger
    private let lock = ConditionLock(value: Phase.idle)
    private let state: State
    /// Whether the manager refused a store (nothing listens on the notify socket any more, a
    /// test's stand-in closed it): no connection is offered or withdrawn again. Decided by
    /// whoever sent that store; read by the loop without the lock.
    private let refused = Atomic<Bool>(false)
    /// Written by ``finish()`` when it gives up, to wake the thread out of poll(2).
    private let abandon: (read: Int32, write: Int32)

    /// nil without `$NOTIFY_SOCKET` (not started by a service manager): nothing to send.
    init?(address: String?, logger: Logger) {
        guard let address, !address.isEmpty else { return nil }
        self.logger = logger
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        abandon = (fds[0], fds[1])
        state = State(socket: NotificationSocket(address: address, abandon: fds[0]))
    }

    /// Starts the thread; messages queued before wait for it.
    func start() throws(ThreadStartError) {
        let thread = try JoinableThread(name: "scrolld-notify") { [self] in run() }
        lock.lock()
        state.thread = thread
        lock.unlock()
    }

    /// Whether the manager refused a store: the caller need not offer more.
    var isRefused: Bool { refused.load(ordering: .relaxed) }

    /// Sends or queues a state message (`READY=1`, `STATUS=…`, `WATCHDOG=1`, `STOPPING=1`);
    /// failures are ignored, as sd_notify's callers do.
    func send(_ text: String) {
        lock.lock()
        if !state.ended, !state.isClear || state.socket.send(text, descriptor: nil, waiting: false) == .wouldBlock {
            state.queue.state(text)
        }
        lock.unlock(withValue: state.phase)
    }

    /// Sends or queues `FDSTORE=1` of `fd` under `name` (`fd` need only be valid during the
    /// call: NIO lends a connection's descriptor for one call; a store queued holds a duplicate
    /// made now). Not sent once the manager refused a store, nor queued with ``storeLimit``
    /// stores waiting (logged once).
    func store(_ fd: Int32, name: String) {
        lock.lock()
        guard !state.ended, !isRefused else { return lock.unlock() }
        if state.isClear {
            let outcome = state.socket.send(NotificationQueue.Message.store(name: name, fd: fd).text, descriptor: fd, waiting: false)
            if outcome != .wouldBlock {
                let (warning, dropped) = outcome == .sent ? (nil, []) : failed(store: name, outcome)
                lock.unlock(withValue: state.phase)
                return settled(warning, dropped)
            }
        }
        let admission = state.queue.store(fd, name: name)
        let warn = admission != .queued && !state.warned
        if warn { state.warned = true }
        lock.unlock(withValue: state.phase)
        switch admission {
        case .queued: break
        case .full where warn: warnNotKept(name, why: "\(Self.storeLimit) stores wait for the service manager")
        case .notDuplicated(let error) where warn: warnNotKept(name, why: String(cString: strerror(error)))
        default: break
        }
    }

    /// Sends or queues `FDSTOREREMOVE=1` of `name`, or takes its store out if it still waits
    /// (then neither is sent).
    func remove(_ name: String) {
        lock.lock()
        guard !state.ended, !isRefused else { return lock.unlock() }
        var cancelled: Int32?
        let text = NotificationQueue.Message.remove(name: name).text
        // A name whose store was never sent needs no remove.
        if !state.queue.forgetUnsent(name), !state.isClear || state.socket.send(text, descriptor: nil, waiting: false) == .wouldBlock {
            cancelled = state.queue.remove(name)
        }
        lock.unlock(withValue: state.phase)
        if let cancelled { close(cancelled) }
    }

    /// Logs `message` unless a connection not kept was logged already.
    func warnOnce(_ message: @autoclosure () -> String) {
        lock.lock()
        let warn = !state.warned
        state.warned = true
        lock.unlock()
        if warn { logger.warning("\(message())") }
    }

    /// Sends what waits, then ends the thread and joins it (at a clean stop, once every
    /// connection is closed). A manager that takes nothing for ``stopGrace`` seconds is given up
    /// on. Messages that come afterwards are dropped.
    func finish() {
        lock.lock()
        let thread = state.thread
        state.stopping = true
        if thread == nil { state.ended = true }
        lock.unlock(withValue: state.phase)
        guard let thread else {
            giveUp()
            return closeAbandon()
        }
        if lock.lock(whenValue: .ended, timeoutSeconds: Self.stopGrace) {
            lock.unlock()
        } else {
            let dropped = giveUp()
            logger.warning("the service manager took none of the daemon's last messages for \(Self.stopGrace) s: \(dropped) waiting are dropped")
            // Only a send left to libsystemd (a vsock address) cannot be woken: the process
            // then ends with that thread still in sendmsg(2).
            guard lock.lock(whenValue: .ended, timeoutSeconds: 1) else { return }
            lock.unlock()
        }
        thread.join()
        closeAbandon()
    }

    /// Drops what waits (closing the stores' descriptors) and wakes the thread out of a wait
    /// for the manager: it ends after the message it sends, if any. Returns how many were dropped.
    @discardableResult
    private func giveUp() -> Int {
        lock.lock()
        let waiting = state.queue.count
        let dropped = state.queue.dropStores(andStates: true)
        lock.unlock(withValue: state.phase)
        for fd in dropped { close(fd) }
        var byte: UInt8 = 1
        _ = write(abandon.write, &byte, 1)
        return waiting
    }

    private func closeAbandon() {
        close(abandon.read)
        close(abandon.write)
    }

    // MARK: The thread

    private func run() {
        while let message = next() {
            var descriptor: Int32?
            if case .store(_, let fd) = message { descriptor = fd }
            // The socket is this thread's while `sending` is set (next()).
            let outcome = state.socket.send(message.text, descriptor: descriptor, waiting: true)
            // The manager has its own copy now, or never will.
            if let descriptor { close(descriptor) }
            lock.lock()
            state.sending = false
            var warning: String?
            var dropped: [Int32] = []
            // A state's or a remove's failure is ignored, as sd_notify's callers do; given up at
            // the stop, giveUp() emptied the queue already.
            if case .store(let name, _) = message, case .failed = outcome {
                (warning, dropped) = failed(store: name, outcome)
            }
            lock.unlock(withValue: state.phase)
            settled(warning, dropped)
        }
    }

    /// The oldest message, once there is one (the socket is the thread's until it is sent);
    /// nil once the end was asked for and nothing is left.
    private func next() -> NotificationQueue.Message? {
        while true {
            lock.lock(whenValue: .ready)
            if let message = state.queue.next() {
                state.sending = true
                lock.unlock(withValue: state.phase)
                return message
            }
            if state.stopping {
                state.ended = true
                lock.unlock(withValue: .ended)
                return nil
            }
            lock.unlock(withValue: state.phase)
        }
    }

    /// A store of `name` was not sent (under the lock): its remove is not sent either; a
    /// refusal stops the store's messages (the descriptors of those that waited are returned,
    /// to close). The warning to log, the first time.
    private func failed(store name: String, _ outcome: NotificationSocket.Outcome) -> (warning: String?, dropped: [Int32]) {
        state.queue.storeFailed(name: name)
        var dropped: [Int32] = []
        if outcome.isRefusal {
            refused.store(true, ordering: .relaxed)
            dropped = state.queue.dropStores()
        }
        guard !state.warned, case .failed(let error) = outcome else { return (nil, dropped) }
        state.warned = true
        return ("cannot keep \(name) in systemd's file descriptor store (\(error == 0 ? "no notification socket" : String(cString: strerror(error)))): a restart will lose it", dropped)
    }

    /// After the lock is let go: closes `dropped` and logs `warning`.
    private func settled(_ warning: String?, _ dropped: [Int32]) {
        for fd in dropped { close(fd) }
        if let warning { logger.warning("\(warning)") }
    }

    private func warnNotKept(_ name: String, why reason: String) {
        logger.warning("cannot keep \(name) in systemd's file descriptor store (\(reason)): a restart will lose it")
    }
}
