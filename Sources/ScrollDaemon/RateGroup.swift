import NIOCore

/// The subscriptions to one container at one `rate` that wait for their next send, and the one
/// timer that sends to them.
///
/// One timer per rate rather than one per subscription: a tick reads the clock once and sends
/// to every subscription due by then, giving them all the same `lastSent`, so they are due
/// again together one interval later and the next tick sends to all of them — 300 subscribers
/// at 120 Hz cost 120 timer wake-ups a second, not 36 000. Sends stay at least one interval
/// apart in real time (a late tick delays the next one), so a subscriber never gets more than
/// `rate` states a second. With nothing waiting no timer is armed (an idle daemon never wakes).
final class RateGroup {
    let interval: TimeAmount
    let eventLoop: EventLoop
    private var queue: [Client.Subscription] = []
    private var task: Scheduled<Void>?

    init(interval: TimeAmount, eventLoop: EventLoop) {
        self.interval = interval
        self.eventLoop = eventLoop
    }

    /// Nothing waits and no timer is armed.
    var isIdle: Bool { task == nil && queue.isEmpty }

    /// Sends the feed's latest state to `subscription` at the first tick at or after `due`.
    func enqueue(_ subscription: Client.Subscription, due: NIODeadline) {
        guard !subscription.queued else { return }
        subscription.queued = true
        queue.append(subscription)
        if task == nil { schedule(at: due) }
    }

    private func schedule(at deadline: NIODeadline) {
        task = eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] in
            self?.tick()
        }
    }

    private func tick() {
        task = nil
        let now = eventLoop.now
        let due = queue
        queue.removeAll(keepingCapacity: true)
        var next: NIODeadline?
        for subscription in due {
            subscription.queued = false
            // Gone, already served, or its socket is full (its writability change sends it).
            guard subscription.isActive, subscription.waiting, subscription.channel.isWritable else { continue }
            if let last = subscription.lastSent, now < last + interval {
                subscription.queued = true
                queue.append(subscription)
                next = min(next ?? last + interval, last + interval)
                continue
            }
            subscription.send(at: now)
        }
        // A tick that took longer than the interval finds the next one due already: it waits
        // for the loop's pass through epoll (`wakeUpDeadline`), or ticks would follow ticks.
        if let next { schedule(at: eventLoop.wakeUpDeadline(next)) }
    }
}
