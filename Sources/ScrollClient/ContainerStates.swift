/// A container's states, from its current one on (``ScrollClient/states(of:rate:)``): an
/// `AsyncSequence` that throws ``ScrollClientError`` alone.
///
/// It ends (returns nil) when its task is cancelled or ``cancel()`` is called, and when no
/// sequence or iterator of it is left; it throws ``ScrollClientError/removed(container:)`` when
/// the container is removed, ``ScrollClientError/closed(_:)`` when its client is closed or
/// released, and ``ScrollClientError/disconnected(_:)`` when the daemon goes away from a client
/// that does not reconnect. Several sequences of one container on one client share the
/// connection's one subscription to it.
public struct ContainerStates: AsyncSequence, Sendable {
    public typealias Element = ContainerState
    public typealias Failure = ScrollClientError
    let handle: FeedHandle<ContainerState>

    /// Iterates over the states; one iterator per sequence.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FeedHandle<ContainerState>

        /// The next state, waiting for it; nil once the sequence has ended.
        public mutating func next() async throws(ScrollClientError) -> ContainerState? {
            try await handle.feed.next().get()
        }

        /// The next state, waiting for it; nil once the sequence has ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ScrollClientError) -> ContainerState? {
            try await handle.feed.next().get()
        }
    }

    /// An iterator over the sequence; the sequence goes on while it or the sequence is held.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: handle)
    }

    /// The newest state waiting, the older ones dropped; nil when none waits (a UI that draws at
    /// its own frame rate wants only the latest). It is ``ContainerState/resumed`` when any
    /// state it stands for was. Throws once the sequence has failed.
    public func latest() throws(ScrollClientError) -> ContainerState? {
        try handle.feed.latest()
    }

    /// Ends the sequence (unsubscribing when no other sequence of the container is left).
    public func cancel() {
        handle.feed.cancel()
    }
}
