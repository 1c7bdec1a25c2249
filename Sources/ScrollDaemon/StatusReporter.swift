import NIOCore

/// What the status line counts (the core).
protocol StatusCounts: AnyObject {
    var deviceCount: Int { get }
    var clientCount: Int { get }
}

/// Tells the status observer (systemd's `STATUS=`) the device and client counts: at once, up
/// to ten times a second (a bucket of ten that refills at ten a second); beyond that once when
/// the bucket has one again, with the counts as they are then. Clients connecting and closing
/// by the hundred a second (the overload mix) cost systemd a `STATUS=` message each, and the
/// loop three system calls each, for a line no one reads that fast; at a normal pace every
/// change is told at once and no timer is left behind to wake an idle daemon.
package final class StatusReporter {
    let eventLoop: EventLoop
    unowned let counts: any StatusCounts
    package weak var observer: (any DaemonStatusObserver)?
    private var bucket = TokenBucket(rate: 10)
    private var pending: Scheduled<Void>?

    init(eventLoop: EventLoop, counts: any StatusCounts) {
        self.eventLoop = eventLoop
        self.counts = counts
    }

    func changed() {
        guard let observer else { return }
        if let wait = bucket.take(at: eventLoop.now) {
            guard pending == nil else { return }
            pending = eventLoop.assumeIsolated().scheduleTask(in: wait) { [weak self] in
                guard let self else { return }
                pending = nil
                bucket.force(at: eventLoop.now)
                self.observer?.statusChanged(devices: counts.deviceCount, clients: counts.clientCount)
            }
            return
        }
        observer.statusChanged(devices: counts.deviceCount, clients: counts.clientCount)
    }
}
