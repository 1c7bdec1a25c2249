/// How much input the loop has in hand, shared by the input thread (scrolld's `LibinputSource`)
/// and the loop under a lock.
///
/// The thread hands a batch over and goes on waiting for libinput. Only when libinput has more
/// while the loop still applies the last batch (the loop is behind: a flood) does the thread stop
/// reading it and sleep until the loop, having applied a batch, wakes it. While the loop keeps
/// up, the thread never stops reading and the loop never writes to wake it.
package struct InputFlow: Sendable {
    /// How many batches may be on their way to the loop before the thread waits for it.
    package let maximumBatchesInFlight: Int
    /// Batches handed to the loop and not yet applied there.
    package private(set) var batchesInFlight = 0
    /// The thread found the loop with ``maximumBatchesInFlight`` in hand and leaves libinput
    /// unread until the loop wakes it.
    package private(set) var isThreadWaiting = false

    package init(maximumBatchesInFlight: Int) {
        self.maximumBatchesInFlight = maximumBatchesInFlight
    }

    /// On the thread, libinput readable: whether to read it now. If not, the thread waits for
    /// the loop's wake-up.
    package mutating func mayRead() -> Bool {
        guard batchesInFlight >= maximumBatchesInFlight else { return true }
        isThreadWaiting = true
        return false
    }

    /// On the thread: a batch handed to the loop (a barrier's too, past the maximum).
    package mutating func handedOver() {
        batchesInFlight += 1
    }

    /// On the loop, a batch applied: whether to wake the thread, which waits for room.
    package mutating func applied() -> Bool {
        batchesInFlight -= 1
        guard isThreadWaiting, batchesInFlight < maximumBatchesInFlight else { return false }
        isThreadWaiting = false
        return true
    }
}
