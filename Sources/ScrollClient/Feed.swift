import Synchronization

/// What one consumer of a subscription or an observation has not taken yet, and how it ended.
/// The connection puts items in from its event loop; the consumer's task takes them out.
final class Feed<Element: Sendable>: Sendable {
    private struct State {
        var items: [Element] = []
        var head = 0
        var waiter: CheckedContinuation<Result<Element?, ScrollClientError>, Never>?
        /// nil while it goes on; `.some(nil)` once it finished, `.some(error)` once it failed
        /// (the error is thrown once, after the items still waiting).
        var end: ScrollClientError??
        /// Told the connection it is no longer wanted.
        var released = false
        var onRelease: (@Sendable () -> Void)?
        var waiting: Int { items.count - head }
    }

    /// The most items kept for a consumer that falls behind.
    static var backlog: Int { 1024 }
    private let state = Mutex(State())
    /// For a consumer that falls `backlog` behind: the newest item merged with the last one
    /// waiting (nil: both go), or, without it, the oldest item dropped.
    private let merge: (@Sendable (_ waiting: Element, _ newest: Element) -> Element?)?

    init(merge: (@Sendable (_ waiting: Element, _ newest: Element) -> Element?)? = nil) {
        self.merge = merge
    }

    /// Called once when the consumer no longer wants items (its iterator and sequence are gone,
    /// its task was cancelled, or ``cancel()``): the connection then unsubscribes.
    func onRelease(_ body: @escaping @Sendable () -> Void) {
        let released = state.withLock { state -> Bool in
            state.onRelease = body
            return state.released
        }
        if released { body() }
    }

    func yield(_ item: Element) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Element?, ScrollClientError>, Never>? in
            guard state.end == nil else { return nil }
            if let waiter = state.waiter {
                state.waiter = nil
                return waiter
            }
            if state.waiting >= Self.backlog {
                if let merge {
                    let last = state.items.removeLast()
                    if let merged = merge(last, item) { state.items.append(merged) }
                } else {
                    state.head += 1
                    state.items.append(item)
                }
            } else {
                state.items.append(item)
            }
            if state.head > 256 && state.head * 2 > state.items.count {
                state.items.removeFirst(state.head)
                state.head = 0
            }
            return nil
        }
        waiter?.resume(returning: .success(item))
    }

    /// Ends the feed: the items waiting are still taken, then the error is thrown (or the
    /// sequence ends, for nil).
    func finish(_ error: ScrollClientError?) {
        let waiter = state.withLock { state -> CheckedContinuation<Result<Element?, ScrollClientError>, Never>? in
            guard state.end == nil else { return nil }
            state.end = .some(error)
            // Ended by the connection: nothing to tell it.
            state.released = true
            state.onRelease = nil
            defer { state.waiter = nil }
            return state.waiter
        }
        guard let waiter else { return }
        if let error {
            state.withLock { $0.end = .some(nil) }
            waiter.resume(returning: .failure(error))
        } else {
            waiter.resume(returning: .success(nil))
        }
    }

    /// The consumer is done with it (cancelled, or dropped): the feed ends and the connection
    /// hears of it once.
    func cancel() {
        let (waiter, release) = state.withLock { state -> (CheckedContinuation<Result<Element?, ScrollClientError>, Never>?, (@Sendable () -> Void)?) in
            if state.end == nil { state.end = .some(nil) }
            state.items.removeAll()
            state.head = 0
            let waiter = state.waiter
            state.waiter = nil
            guard !state.released else { return (waiter, nil) }
            state.released = true
            defer { state.onRelease = nil }
            return (waiter, state.onRelease)
        }
        waiter?.resume(returning: .success(nil))
        release?()
    }

    /// The next item, waiting for it; nil once the feed has finished (or the task was
    /// cancelled, which ends it).
    func next() async -> Result<Element?, ScrollClientError> {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Element?, ScrollClientError>, Never>) in
                let ready = state.withLock { state -> Result<Element?, ScrollClientError>? in
                    if state.waiting > 0 {
                        defer { state.head += 1 }
                        return .success(state.items[state.head])
                    }
                    switch state.end {
                    case nil:
                        state.waiter = continuation
                        return nil
                    case .some(nil):
                        return .success(nil)
                    case .some(.some(let error)):
                        state.end = .some(nil)
                        return .failure(error)
                    }
                }
                if let ready { continuation.resume(returning: ready) }
            }
        } onCancel: {
            self.cancel()
        }
    }

    /// Takes the oldest item waiting, if any.
    fileprivate func peekOldest() -> Element? {
        state.withLock { state -> Element? in
            guard state.waiting > 0 else { return nil }
            defer { state.head += 1 }
            return state.items[state.head]
        }
    }

    /// The newest item waiting, the older ones dropped; nil when none waits. Throws like
    /// iteration once the feed has failed and nothing waits.
    func latest() throws(ScrollClientError) -> Element? {
        let result = state.withLock { state -> Result<Element?, ScrollClientError> in
            if state.waiting > 0 {
                let item = state.items[state.items.count - 1]
                state.items.removeAll()
                state.head = 0
                return .success(item)
            }
            if case .some(.some(let error)) = state.end {
                state.end = .some(nil)
                return .failure(error)
            }
            return .success(nil)
        }
        return try result.get()
    }
}

extension Feed {
    /// The oldest and the newest item waiting, all of them taken; nil when none waits. Throws
    /// like iteration once the feed has failed and nothing waits.
    func latestWithFirst() throws(ScrollClientError) -> (oldest: Element, latest: Element)? {
        guard let oldest = try takeOldest() else { return nil }
        return (oldest, try latest() ?? oldest)
    }

    private func takeOldest() throws(ScrollClientError) -> Element? {
        guard let item = peekOldest() else { return try latest() }
        return item
    }
}

/// Holds a feed for as long as the app holds its sequence or an iterator of it: when the last
/// of them goes, the feed is cancelled and the connection stops sending what nobody reads.
final class FeedHandle<Element: Sendable>: Sendable {
    let feed: Feed<Element>

    init(_ feed: Feed<Element>) {
        self.feed = feed
    }

    deinit {
        feed.cancel()
    }
}

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

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: handle)
    }

    /// The newest state waiting, the older ones dropped; nil when none waits (a UI that draws at
    /// its own frame rate wants only the latest). Throws once the sequence has failed.
    public func latest() throws(ScrollClientError) -> ContainerState? {
        try handle.feed.latest()
    }

    /// Ends the sequence (unsubscribing when no other sequence of the container is left).
    public func cancel() {
        handle.feed.cancel()
    }
}

/// An observed value's changes (``ScrollClient/observe(_:_:)``), its current value first (`old`
/// nil): an `AsyncSequence` that throws ``ScrollClientError`` alone, and ends as
/// ``ContainerStates`` does.
public struct Observations<Value: Hashable & Sendable>: AsyncSequence, Sendable {
    public typealias Element = Observation<Value>
    public typealias Failure = ScrollClientError
    let handle: FeedHandle<Observation<Value>>

    /// Iterates over the changes; one iterator per sequence.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let handle: FeedHandle<Observation<Value>>

        /// The next change, waiting for it; nil once the sequence has ended.
        public mutating func next() async throws(ScrollClientError) -> Observation<Value>? {
            try await handle.feed.next().get()
        }

        /// The next change, waiting for it; nil once the sequence has ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async throws(ScrollClientError) -> Observation<Value>? {
            try await handle.feed.next().get()
        }
    }

    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(handle: handle)
    }

    /// The newest change waiting (its `old` the value before the oldest one dropped); nil when
    /// none waits.
    public func latest() throws(ScrollClientError) -> Observation<Value>? {
        guard let first = try handle.feed.latestWithFirst() else { return nil }
        var change = first.latest
        change.old = first.oldest.old
        change.resumed = first.oldest.resumed || change.resumed
        return change
    }

    /// Ends the sequence (unobserving).
    public func cancel() {
        handle.feed.cancel()
    }
}
