import Logging
import NIOCore
import ScrollModel

/// What the deadline scheduler drives: the daemon's core.
protocol DeadlineTarget: AnyObject {
    /// Runs every frame and timer due by `time`, publishing each, and reschedules.
    func runDeadlines(until time: Timestamp)
}

/// Keeps exactly one wake-up scheduled on the loop's clock: at the session's next deadline (a
/// frame or a timer), or none at all, so that when nothing moves the loop sleeps in epoll.
///
/// Frames never run before input that happened earlier, or live states would differ from a
/// replay of the same events: at a deadline the input source is asked for a barrier first
/// (``InputSource``), and what is due runs once it has handed over everything stamped before.
package final class DeadlineScheduler {
    let eventLoop: EventLoop
    unowned let target: any DeadlineTarget
    let logger: Logger
    /// The input source frames wait for; nil: none, or it ended.
    package var input: (any InputSource)?
    /// A replay source feeding the loop besides real input (the demo fallback): before frames
    /// run, its events due before them go in.
    package weak var replay: ReplaySource?
    private var barrierPending = false
    /// The one wake-up scheduled, and its deadline.
    private var task: NIOScheduledCallback?
    private var scheduled: Timestamp?
    /// Input events that reached the loop after a frame (or request) they predate.
    package private(set) var lateInputs = 0

    init(eventLoop: EventLoop, target: any DeadlineTarget, logger: Logger) {
        self.eventLoop = eventLoop
        self.target = target
        self.logger = logger
    }

    /// Schedules the one wake-up at `next` (nil: none).
    func reschedule(at next: Timestamp?) {
        guard next != scheduled else { return }
        task?.cancel()
        task = nil
        scheduled = next
        guard let next else { return }
        task = try? eventLoop.scheduleCallback(at: eventLoop.wakeUpDeadline(at: next), handler: WakeUp(scheduler: self, deadline: next))
    }

    /// A wake-up at one of the session's deadlines. A scheduled callback rather than a task:
    /// a wake-up comes at every frame and, live, at most input events, and a task costs a
    /// promise, its future and a closure each time (docs/performance-live.md, finding 8).
    /// NIO calls it on the loop it was scheduled from, the core's, the one thread that touches
    /// the core: hence the unchecked `Sendable`, which lets it skip the isolated entry point's
    /// `NIOLoopBound` box (`ReplaySource.WakeUp` says more).
    struct WakeUp: NIOScheduledCallbackHandler, @unchecked Sendable {
        weak var scheduler: DeadlineScheduler?
        let deadline: Timestamp

        func handleScheduledCallback(eventLoop: some EventLoop) {
            scheduler?.deadlineReached(deadline)
        }
    }

    private func deadlineReached(_ deadline: Timestamp) {
        // NIO runs every task it took as due in one tick, even one cancelled by an earlier task
        // of that tick (an input that moved the deadline). Such a superseded wake-up must do
        // nothing: it would otherwise run the newer deadline before its time, stamp every input
        // until then with that future frame time, and leave two wake-ups chasing each other.
        guard deadline == scheduled else { return }
        scheduled = nil
        task = nil
        // Input stamped before this deadline may not have reached the loop yet: let the input
        // thread hand over everything first (its events run the frames before them exactly as
        // a replay would), then run what is still due.
        if let input {
            guard !barrierPending else { return }
            barrierPending = true
            let scheduler = NIOLoopBound(self, eventLoop: eventLoop)
            input.barrier { readTime in scheduler.value.barrierPassed(readTime) }
            return
        }
        // NIO runs a task only once its deadline has passed on this same clock.
        let now = max(eventLoop.timestamp, deadline)
        replay?.deliverDue(until: now)
        target.runDeadlines(until: now)
    }

    private func barrierPassed(_ readTime: Timestamp) {
        barrierPending = false
        replay?.deliverDue(until: readTime)
        target.runDeadlines(until: readTime)
    }

    /// The input source ended for good (its thread returned): nothing will answer a barrier
    /// again, so frames stop waiting for one and run on the loop's own timer from now on (after
    /// the replay source's events, if one runs).
    package func inputEnded() {
        input = replay
        barrierPending = false
        scheduled = nil
        task?.cancel()
        task = nil
        target.runDeadlines(until: eventLoop.timestamp)
    }

    /// An event stamped before something the session already ran (at `now`): it applies at the
    /// session's time, and is recorded there, so live and replay still agree, but later than it
    /// happened. A request runs at the loop's clock without waiting for input on its way; a
    /// frame waits for the input thread's barrier, which sees every event the kernel has queued
    /// but not one it has stamped and not yet queued — microseconds with interrupts off, unless
    /// a hypervisor deschedules the virtual CPU in between. Said at the 1st, 10th, 100th… time.
    func arrivedLate(_ event: ScrollEvent, now: Timestamp) {
        lateInputs += 1
        var power = 1
        while power < lateInputs { power *= 10 }
        guard power == lateInputs else { return }
        let times = lateInputs == 1 ? "once" : "\(lateInputs) times"
        logger.info("input reached the daemon after a frame or request it predates \(times) (this one by \(now - event.time) µs): applied and recorded at that moment")
    }
}
