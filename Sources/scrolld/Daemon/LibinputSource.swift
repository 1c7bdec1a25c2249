import Logging
import NIOConcurrencyHelpers
import NIOCore
import ScrollConfig
import ScrollInput
import ScrollModel
import ScrollPOSIX
import ScrollDaemon
import ScrollProtocol
#if canImport(Glibc)
import Glibc
#endif

/// Real input: a libinput context on its own thread, which sleeps in poll(2) on libinput's fd
/// (and an eventfd to be woken for shutdown), dispatches the moment the fd is readable, and
/// hands each batch of events to the daemon's event loop. libinput contexts are not
/// thread-safe, so the context never leaves this thread.
final class LibinputSource: InputSource, Sendable {
    let backend: LibinputContext.Backend
    let logger: Logger
    /// A pipe whose read end wakes the thread's poll(2) for shutdown.
    let wake: (read: Int32, write: Int32)
    /// The devices present, as the input thread last saw them.
    let present = NIOLockedValueBox<[InputDevice]>([])
    /// Ordering with frames: a frame must never run before input that happened earlier, or
    /// live states would differ from a replay of the same events. libinput can hold events
    /// back (its own timers, reads in progress), so before running frames the loop asks for a
    /// barrier: this thread dispatches libinput, hands over every event it has, then answers
    /// with the moment it read — everything stamped before that is now on the loop, in order.
    let barrierWaiting = NIOLockedValueBox<[@Sendable (Timestamp) -> Void]>([])
    /// `[input]` from the configuration in force; replaced on reload.
    let settings: NIOLockedValueBox<InputSettings>
    let problem = NIOLockedValueBox<String?>(nil)
    /// Batches on their way to the loop (``InputFlow``). With one in flight and more to read,
    /// the thread stops reading libinput (a barrier aside) until the loop has applied it: a
    /// device that sends faster than the loop applies (a flood of wheel events) then fills the
    /// kernel's buffer, which drops what does not fit (`SYN_DROPPED`; libinput resynchronizes),
    /// rather than the loop's task queue, which NIO runs whole before it reads a socket again,
    /// so that no client would be served until the backlog was applied. One: the loop's backlog
    /// of input is the batch it applies, and a batch is what the kernel buffered meanwhile
    /// (docs/decisions.md, "An eleventh hostile round").
    let flow = NIOLockedValueBox(InputFlow(maximumBatchesInFlight: 1))

    /// Device names never opened (`daemon.ignore`, read at start).
    let ignored: [String]
    /// `daemon.realtime_priority` (0: stay at normal priority), read at start.
    let realtimePriority: Int32
    /// The seat whose logind sessions input follows (docs/design.md §15); nil: `follow_session =
    /// false`.
    let followedSeat: String?
    /// Whether the devices are read now, as the input thread last decided.
    let state = NIOLockedValueBox<InputState>(.active)
    /// True while no input thread runs: `stop()` waits for it, so that the thread's last
    /// hand-over reaches a loop that still runs.
    private let ended = ConditionLock(value: true)

    init(backend: LibinputContext.Backend, ignoring ignored: [String], settings: InputSettings, realtimePriority: Int32, followingSessionsOf followedSeat: String?, logger: Logger) {
        self.backend = backend
        self.ignored = ignored
        self.realtimePriority = realtimePriority
        self.followedSeat = followedSeat
        self.logger = logger
        self.settings = NIOLockedValueBox(settings)
        var fds: [Int32] = [-1, -1]
        _ = pipe(&fds)
        for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        wake = (fds[0], fds[1])
    }

    /// Starts the thread; `ready` is called (on the loop) once the initial devices are known.
    ///
    /// However the thread ends — asked to stop, no libinput context, or a failure — the loop
    /// hears of it (`DeadlineScheduler.inputEnded`): frames must never wait for a barrier that nothing
    /// will answer. An end nobody asked for is logged as critical: the daemon goes on serving
    /// clients and programmatic scrolling, without input.
    func start(core: NIOLoopBound<DaemonCore>, ready: @escaping @Sendable (_ usable: Int, _ problem: String?) -> Void) {
        ended.lock()
        ended.unlock(withValue: false)
        DetachedThread.start(name: "scrolld-input") { [self] in
            let failure = self.run(core: core, ready: ready)
            let logger = self.logger
            core.eventLoop.execute {
                if let failure { logger.critical("input thread ended: \(failure); no more input is read (clients are still served)") }
                core.value.scheduler.inputEnded()
            }
            ended.lock()
            ended.unlock(withValue: true)
        }
    }

    /// Asks the input thread to end and waits until it has (call it before the event loop shuts
    /// down: the thread's last act is a task on the loop), for a few seconds at most: a thread
    /// stuck in a device's driver must not keep the daemon from exiting.
    func stop() {
        var byte = Self.stopRequest
        _ = write(wake.write, &byte, 1)
        if ended.lock(whenValue: true, timeoutSeconds: 5) {
            ended.unlock()
        } else {
            logger.warning("the input thread did not end within 5 s of being asked; exiting without it")
        }
    }

    /// Puts new `[input]` settings in force on every present device (on the input thread).
    func apply(_ new: InputSettings) {
        settings.withLockedValue { $0 = new }
        var byte = Self.reapplyRequest
        _ = write(wake.write, &byte, 1)
    }

    var devices: [DeviceInfo] {
        present.withLockedValue { $0 }.map { DeviceInfo(id: $0.id, name: $0.name, capabilities: $0.capabilities, path: $0.path) }
    }

    var inputState: InputState { state.withLockedValue { $0 } }

    /// Asks the input thread to read libinput now; `passed(readTime)` then runs on the loop
    /// after every event read up to `readTime` has been handed over.
    func barrier(_ passed: @escaping @Sendable (Timestamp) -> Void) {
        barrierWaiting.withLockedValue { $0.append(passed) }
        var byte = Self.barrierRequest
        _ = write(wake.write, &byte, 1)
    }

    /// After a SIGXCPU took the daemon out of real time: the input thread asks again.
    func askForRealtimeAgain() {
        guard realtimePriority > 0 else { return }
        var byte = Self.realtimeRequest
        _ = write(wake.write, &byte, 1)
    }

    static let stopRequest: UInt8 = 1
    static let reapplyRequest: UInt8 = 2
    static let barrierRequest: UInt8 = 3
    static let realtimeRequest: UInt8 = 4
    /// Makes the thread end as if it had failed: how the tests prove that the daemon survives
    /// the loss of its input (`run --fail-input-after`, hidden).
    static let failureRequest: UInt8 = 5
    /// The loop applied a batch while the thread waited for room (``InputFlow``): read again.
    static let batchAppliedRequest: UInt8 = 6

    /// Ends the input thread as a failure would.
    func injectFailure() {
        var byte = Self.failureRequest
        _ = write(wake.write, &byte, 1)
    }

    /// The input thread's body; returns why it ended when that was a failure (nil: stopped on
    /// request, or no context to read from, which `ready` already reported).
    private func run(core: NIOLoopBound<DaemonCore>, ready: @escaping @Sendable (Int, String?) -> Void) -> String? {
        guard let context = openContext(ready: ready, on: core.eventLoop) else { return nil }
        deliver(context, to: core)
        let usable = context.devices.count
        let permission = context.permissionProblem
        problem.withLockedValue { $0 = permission }
        if realtimePriority > 0 {
            // Once the seat's devices are in (that work may take a while, and need not be real
            // time), before READY=1. Input's timestamps are the kernel's, but libinput's own
            // timers (scroll stops, button-scroll timeouts) and every hand-over to the loop run
            // on this thread.
            RealtimeScheduling.enterCurrentThread(as: .input, priority: realtimePriority, logging: logger)
        }
        core.eventLoop.execute { ready(usable, permission) }
        return serve(context, core: core)
    }

    /// The libinput context of the configured backend; nil (and `ready` told why) when it
    /// cannot be made.
    private func openContext(ready: @escaping @Sendable (Int, String?) -> Void, on loop: EventLoop) -> LibinputContext? {
        let settings = self.settings, logger = self.logger
        do {
            return try LibinputContext(
                backend,
                ignoring: ignored,
                touchscreens: settings.withLockedValue { $0 }.touchscreens,
                settings: { name in settings.withLockedValue { $0 }.libinputSettings(forDevice: name) },
                onDiagnostic: { message in logger.warning("\(message)") }
            )
        } catch {
            let message = "\(error)"
            problem.withLockedValue { $0 = message }
            loop.execute { ready(0, message) }
            return nil
        }
    }

    /// The thread's loop: asleep in poll(2) until libinput, a wake-up request or logind has
    /// something. Returns why it ended (nil: asked to stop).
    private func serve(_ context: LibinputContext, core: NIOLoopBound<DaemonCore>) -> String? {
        // logind, on this thread: suspending and resuming libinput must happen where its
        // context lives. Watched after the devices present at start are in, so that `ready`
        // reports them; a daemon started while its user is away closes them again at once.
        var watcher = followedSeat.flatMap { watchSessions(of: $0, context: context, core: core) }
        var fds = [
            pollfd(fd: context.fileDescriptor, events: Int16(POLLIN), revents: 0),
            pollfd(fd: wake.read, events: Int16(POLLIN), revents: 0),
            pollfd(fd: -1, events: 0, revents: 0),
        ]
        while true {
            // Not libinput while the thread waits for the loop to apply what it has (``flow``).
            let isWaiting = flow.withLockedValue { $0.isThreadWaiting }
            fds[0].fd = isWaiting ? -1 : context.fileDescriptor
            fds[0].revents = 0
            // sd-bus says what it waits for, and until when (messages already queued: now).
            var timeout: Int32 = -1
            if let watcher {
                fds[2] = pollfd(fd: watcher.fileDescriptor, events: watcher.events, revents: 0)
                timeout = watcher.timeout
            }
            let result = poll(&fds, watcher == nil ? 2 : 3, timeout)
            if result < 0 {
                if errno == EINTR { continue }
                return "poll failed: \(String(cString: strerror(errno)))"
            }
            if let current = watcher, result == 0 || fds[2].revents != 0, !current.process() {
                watcher = nil
                lostSessions(context: context, core: core)
            }
            if fds[1].revents != 0 {
                var request: UInt8 = 0
                _ = read(wake.read, &request, 1)
                switch answer(request, context: context, core: core) {
                case .served: continue
                case .goOn: break
                case .ended(let reason): return reason
                }
            }
            if fds[0].revents != 0, flow.withLockedValue({ $0.mayRead() }) {
                context.dispatch()
                deliver(context, to: core)
            }
        }
    }

    private enum Answer {
        /// Everything libinput had was read: nothing is left for this turn.
        case served
        case goOn
        /// The thread ends, with the reason (nil: asked to stop).
        case ended(String?)
    }

    /// What a wake-up request from the loop asks of the input thread.
    private func answer(_ request: UInt8, context: LibinputContext, core: NIOLoopBound<DaemonCore>) -> Answer {
        switch request {
        case Self.reapplyRequest:
            context.reapplySettings()
        case Self.realtimeRequest:
            RealtimeScheduling.enterCurrentThread(as: .input, priority: realtimePriority, logging: logger)
        case Self.barrierRequest:
            let readTime = MonotonicClock.now()
            context.dispatch()
            deliver(context, to: core)
            // Queued after the events: the loop runs it once they are all applied.
            let waiting = barrierWaiting.withLockedValue { list in defer { list.removeAll() }; return list }
            core.eventLoop.execute { for passed in waiting { passed(readTime) } }
            return .served
        case Self.batchAppliedRequest:
            return .served
        case Self.stopRequest:
            return .ended(nil)
        case Self.failureRequest:
            return .ended("a failure was injected (run --fail-input-after)")
        default:
            return .ended("unknown wake-up request \(request)")
        }
        return .goOn
    }

    /// Connects to logind and puts its decisions in force on `context`; nil (after one info line)
    /// when there is no system bus or no logind: input is then read as before.
    private func watchSessions(of seat: String, context: LibinputContext, core: NIOLoopBound<DaemonCore>) -> LogindWatcher? {
        let watcher: LogindWatcher
        do {
            watcher = try LogindWatcher(seat: seat, uid: getuid())
        } catch {
            logger.info("not following logind sessions: \(error); input is read regardless of the session")
            return nil
        }
        let logger = self.logger
        watcher.onWarning = { logger.warning("\($0)") }
        watcher.onTransition = { [unowned self, unowned context] transition in
            self.enter(transition.to, from: transition.from, context: context, core: core)
            logger.notice("\(transition.message)")
        }
        logger.info("following logind sessions of \(seat): input is read while this user's session is the active one")
        if let start = watcher.atStart {
            enter(start.to, from: start.from, context: context, core: core)
            logger.notice("\(start.message)")
        }
        return watcher
    }

    /// Closes or reopens the devices for a new state, and hands the loop what follows (the
    /// removals end gestures in progress as scroll stops; the additions are the devices found
    /// anew, hotplugged ones included).
    private func enter(_ new: InputState, from old: InputState, context: LibinputContext, core: NIOLoopBound<DaemonCore>) {
        if old.isActive, !new.isActive { context.suspend() }
        if !old.isActive, new.isActive, !context.resume() { logger.error("libinput could not reopen the input devices") }
        state.withLockedValue { $0 = new }
        deliver(context, to: core)
        core.eventLoop.execute { core.value.statusChanged() }
    }

    /// The system bus went away: logind can no longer say when to pause, so input is read as
    /// it is without logind.
    private func lostSessions(context: LibinputContext, core: NIOLoopBound<DaemonCore>) {
        let old = state.withLockedValue { $0 }
        logger.warning("lost the system bus: no longer following logind sessions; input is read regardless of the session")
        guard !old.isActive else { return }
        enter(.active, from: old, context: context, core: core)
        logger.notice("input resumed: no session to follow (input devices found anew)")
    }

    /// Hands what libinput has to the loop, in one batch, in order.
    private func deliver(_ context: LibinputContext, to core: NIOLoopBound<DaemonCore>) {
        var batch: [ScrollEvent] = []
        var devicesChanged = false
        while let event = context.nextEvent() {
            if !event.isInput { devicesChanged = true }
            batch.append(event)
        }
        var devicesPresent: Bool?
        if devicesChanged {
            let snapshot = context.devices.values.sorted { $0.id < $1.id }
            present.withLockedValue { $0 = snapshot }
            // A suspended context (the session went inactive) removes every device, but none
            // left the seat: the fallback demo stays as it is.
            devicesPresent = state.withLockedValue { $0 }.isActive ? !snapshot.isEmpty : nil
        }
        guard !batch.isEmpty else { return }
        let events = batch, changed = devicesChanged, stillPresent = devicesPresent
        flow.withLockedValue { $0.handedOver() }
        let flow = self.flow, wake = self.wake.write
        core.eventLoop.execute {
            core.value.seatInput(events, devicesPresent: stillPresent)
            if changed { core.value.statusChanged() }
            if flow.withLockedValue({ $0.applied() }) {
                var byte = Self.batchAppliedRequest
                _ = write(wake, &byte, 1)
            }
        }
    }
}
