import ScrollDaemon
import Testing

/// The input thread's flow control (`InputFlow`): a loop that keeps up is never asked to wake
/// the thread, and one that falls behind is given one batch at a time.
@Suite struct InputFlowTests {
    /// Each batch applied before libinput has more: the thread reads on, and no wake-up is due
    /// (the first flow control wrote one after every batch: a thread wake-up per batch).
    @Test func aLoopThatKeepsUpWakesNobody() {
        var flow = InputFlow(maximumBatchesInFlight: 1)
        var reads = 0, wakeUps = 0
        for _ in 0..<1000 {
            if flow.mayRead() { reads += 1 }
            flow.handedOver()
            if flow.applied() { wakeUps += 1 }
        }
        #expect(reads == 1000)
        #expect(wakeUps == 0)
        #expect(!flow.isThreadWaiting && flow.batchesInFlight == 0)
    }

    /// libinput readable while a batch is in flight: the thread waits, and the loop's applying
    /// that batch is the one wake-up; then the thread reads again.
    @Test func aLoopBehindIsGivenOneBatchAtATime() {
        var flow = InputFlow(maximumBatchesInFlight: 1)
        let first = flow.mayRead()
        flow.handedOver()
        let second = flow.mayRead()
        let waited = flow.isThreadWaiting
        let wakes = flow.applied()
        let third = flow.mayRead()
        #expect(first && !second && waited)
        #expect(wakes && !flow.isThreadWaiting)
        #expect(third)
    }

    /// A barrier's batch goes past the maximum: the waiting thread is woken only once the loop
    /// has room again, after both.
    @Test func aBarriersExtraBatchDelaysTheWakeUpUntilThereIsRoom() {
        var flow = InputFlow(maximumBatchesInFlight: 1)
        flow.handedOver()
        let reads = flow.mayRead()
        flow.handedOver()  // the barrier's
        let afterFirst = flow.applied()
        let afterSecond = flow.applied()
        let readsAgain = flow.mayRead()
        #expect(!reads && !afterFirst && afterSecond && readsAgain)
    }
}
