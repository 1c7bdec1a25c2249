import NIOCore
import ScrollModel
import ScrollSession

/// Input and time: events from the input source, and the one wake-up at the session's next
/// deadline (a frame or a timer), which runs only once the input source has handed over
/// everything stamped before it.
extension DaemonCore {
    /// Input events from any source, stamped on CLOCK_MONOTONIC, in order. Each state the
    /// session publishes is encoded once; a subscriber then receives all of a batch's states in
    /// one write, so when the daemon falls behind (input arrives in bigger batches) its cost per
    /// state falls instead of the backlog growing.
    package func input(_ events: [ScrollEvent]) {
        eventLoop.assertInEventLoop()
        for event in events {
            if event.time < session.now, event.isInput { arrivedLate(event) }
            session.input(event) { collect($0) }
        }
        deliver()
        deliverObservations()
        reschedule()
    }

    package func input(_ event: ScrollEvent) {
        input([event])
    }

    /// An event stamped before something the session already ran: it applies at the session's
    /// time, and is recorded there, so live and replay still agree, but later than it happened.
    /// A request runs at the loop's clock without waiting for input on its way; a frame waits
    /// for the input thread's barrier, which sees every event the kernel has queued but not one
    /// it has stamped and not yet queued — microseconds with interrupts off, unless a hypervisor
    /// deschedules the virtual CPU in between. Said at the 1st, 10th, 100th… time.
    private func arrivedLate(_ event: ScrollEvent) {
        lateInputs += 1
        var power = 1
        while power < lateInputs { power *= 10 }
        guard power == lateInputs else { return }
        let times = lateInputs == 1 ? "once" : "\(lateInputs) times"
        logger.info("input reached the daemon after a frame or request it predates \(times) (this one by \(session.now - event.time) µs): applied and recorded at that moment")
    }

    /// Keeps exactly one wake-up scheduled: at the session's next deadline, or none at all.
    func reschedule() {
        writeRecording()
        let next = session.nextDeadline
        guard next != scheduledDeadline else { return }
        deadlineTask?.cancel()
        deadlineTask = nil
        scheduledDeadline = next
        guard let next else { return }
        deadlineTask = try? eventLoop.scheduleCallback(at: NIODeadline(timestamp: next), handler: DeadlineWakeUp(core: self, deadline: next))
    }

    /// A wake-up at one of the session's deadlines. A scheduled callback rather than a task:
    /// a wake-up comes at every frame and, live, at most input events, and a task costs a
    /// promise, its future and a closure each time (docs/performance-live.md, finding 8).
    /// NIO calls it on the loop it was scheduled from, the core's, the one thread that touches
    /// the core: hence the unchecked `Sendable`, which lets it skip the isolated entry point's
    /// `NIOLoopBound` box (`ReplaySource.WakeUp` says more).
    struct DeadlineWakeUp: NIOScheduledCallbackHandler, @unchecked Sendable {
        weak var core: DaemonCore?
        let deadline: Timestamp

        func handleScheduledCallback(eventLoop: some EventLoop) {
            core?.deadlineReached(deadline)
        }
    }

    fileprivate func deadlineReached(_ deadline: Timestamp) {
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
        if let input {
            guard !barrierPending else { return }
            barrierPending = true
            let core = NIOLoopBound(self, eventLoop: eventLoop)
            input.barrier { readTime in core.value.barrierPassed(readTime) }
            return
        }
        // NIO runs a task only once its deadline has passed on this same clock.
        let now = max(eventLoop.timestamp, deadline)
        replay?.deliverDue(until: now)
        runDeadlines(until: now)
    }

    private func barrierPassed(_ readTime: Timestamp) {
        barrierPending = false
        replay?.deliverDue(until: readTime)
        runDeadlines(until: readTime)
    }

    /// The input source ended for good (its thread returned): nothing will answer a barrier
    /// again, so frames stop waiting for one and run on the loop's own timer from now on (after
    /// the replay source's events, if one runs).
    package func inputEnded() {
        input = replay
        barrierPending = false
        scheduledDeadline = nil
        deadlineTask?.cancel()
        deadlineTask = nil
        runDeadlines(until: eventLoop.timestamp)
    }

    /// Runs every frame and timer due by `time` (a late wake-up runs them all, each with its own
    /// timestamp, each published).
    private func runDeadlines(until time: Timestamp) {
        if let next = session.nextDeadline, next <= time {
            // Not `advance(to: time)`: `time` is when the input thread's barrier read the clock,
            // and an event the kernel stamped just before it may reach the loop after it; the
            // session stays at the last frame, so that event still applies at its own time.
            session.runDeadlines(dueBy: time) { collect($0) }
            deliver()
            deliverObservations()
        }
        reschedule()
    }
}
