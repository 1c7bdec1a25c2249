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
    /// An item that is not delivered folded into the next one (`older` came first): what the
    /// next one must not lose of it, such as that it was the first after a reconnection.
    private let absorb: @Sendable (_ older: Element, _ newer: Element) -> Element
    /// For a consumer that falls `backlog` behind: nil, the oldest item goes (absorbed into the
    /// next); else the newest item is absorbed into the last one waiting, and both go when this
    /// says the result is not worth delivering.
    private let keepsMerged: (@Sendable (Element) -> Bool)?

    init(
        absorb: @escaping @Sendable (_ older: Element, _ newer: Element) -> Element,
        keepsMerged: (@Sendable (Element) -> Bool)? = nil
    ) {
        self.absorb = absorb
        self.keepsMerged = keepsMerged
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
                if let keepsMerged {
                    let merged = absorb(state.items.removeLast(), item)
                    if keepsMerged(merged) { state.items.append(merged) }
                } else {
                    state.items[state.head + 1] = absorb(state.items[state.head], state.items[state.head + 1])
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

    /// The newest item waiting with every older one absorbed into it, all of them taken; nil
    /// when none waits (a UI that draws at its own frame rate wants only this). Throws like
    /// iteration once the feed has failed and nothing waits.
    func latest() throws(ScrollClientError) -> Element? {
        let result = state.withLock { state -> Result<Element?, ScrollClientError> in
            if state.waiting > 0 {
                var item = state.items[state.head]
                for newer in state.items[(state.head + 1)...] { item = absorb(item, newer) }
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
