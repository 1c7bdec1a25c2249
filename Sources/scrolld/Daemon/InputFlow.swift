/// How much input the loop has in hand, shared by the input thread and the loop under a lock.
///
/// The thread hands a batch over and goes on waiting for libinput as before. Only when libinput
/// has more while the loop still applies the last one (the loop is behind: a flood) does the
/// thread stop reading it and sleep until the loop, having applied a batch, wakes it. A loop that
/// keeps up is never woken for this, and never wakes the thread.
struct InputFlow: Sendable {
    /// How many batches may be on their way to the loop before the thread waits for it.
    let maximumBatchesInFlight: Int
    /// Batches handed to the loop and not yet applied there.
    private(set) var batchesInFlight = 0
    /// The thread found the loop with ``maximumBatchesInFlight`` in hand and leaves libinput
    /// unread until the loop wakes it.
    private(set) var isThreadWaiting = false

    init(maximumBatchesInFlight: Int) {
        self.maximumBatchesInFlight = maximumBatchesInFlight
    }

    /// On the thread, libinput readable: whether to read it now. If not, the thread waits for
    /// the loop's wake-up.
    mutating func mayRead() -> Bool {
        guard batchesInFlight >= maximumBatchesInFlight else { return true }
        isThreadWaiting = true
        return false
    }

    /// On the thread: a batch handed to the loop (a barrier's too, past the maximum).
    mutating func handedOver() {
        batchesInFlight += 1
    }

    /// On the loop, a batch applied: whether to wake the thread, which waits for room.
    mutating func applied() -> Bool {
        batchesInFlight -= 1
        guard isThreadWaiting, batchesInFlight < maximumBatchesInFlight else { return false }
        isThreadWaiting = false
        return true
    }
}
