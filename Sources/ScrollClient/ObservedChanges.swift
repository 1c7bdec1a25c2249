/// An observed value's changes (``ScrollClient/observe(_:_:)``), its current value first (`old`
/// nil): an `AsyncSequence` that throws ``ScrollClientError`` alone, and ends as
/// ``ContainerStates`` does.
public struct ObservedChanges<Value: Hashable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = ObservedChange<Value>
    public typealias Failure = ScrollClientError
    let handle: FeedHandle<ObservedChange<Value>>

    /// Iterates over the changes; one iterator per sequence.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FeedHandle<ObservedChange<Value>>

        /// The next change, waiting for it; nil once the sequence has ended.
        public mutating func next() async throws(ScrollClientError) -> ObservedChange<Value>? {
            try await handle.feed.next().get()
        }

        /// The next change, waiting for it; nil once the sequence has ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ScrollClientError) -> ObservedChange<Value>? {
            try await handle.feed.next().get()
        }
    }

    /// An iterator over the sequence; the sequence goes on while it or the sequence is held.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: handle)
    }

    /// The newest change waiting (its `old` the value before the oldest one dropped); nil when
    /// none waits.
    public func latest() throws(ScrollClientError) -> ObservedChange<Value>? {
        try handle.feed.latest()
    }

    /// Ends the sequence (unobserving).
    public func cancel() {
        handle.feed.cancel()
    }
}
