import NIOCore
import ScrollModel
import ScrollProtocol
import Synchronization

/// A connection's state subscriptions and observations, shared by their consumers.
extension Connection {
    // MARK: Streams

    /// A consumer of `container`'s states. The first one subscribes; the next ones share that
    /// subscription, each getting the current state first (a `get`), then the same broadcasts.
    func states(of container: String, rate: Double?) -> Feed<ContainerState> {
        // A state not delivered (dropped behind, or left for a later one by `latest()`) passes on
        // that it was the first after a reconnection.
        let feed = Feed<ContainerState> { older, newer in
            var state = newer
            state.resumed = older.resumed || newer.resumed
            return state
        }
        let token = state.withLock { state -> Int? in
            if let ended = state.ended {
                feed.finish(ended)
                return nil
            }
            if let rate {
                let request = RequestLine("subscribe", [("rate", .double(rate))])
                do throws(ScrollClientError) {
                    _ = try request.encoded(id: nil)
                } catch {
                    feed.finish(error)
                    return nil
                }
            }
            var hub = state.hubs[container] ?? Hub()
            if let other = hub.consumers.values.first, other.rate != rate {
                feed.finish(.daemon(
                    code: .invalidValue,
                    message: "\"\(container)\" is already followed on this client at rate \(other.rate.map { "\($0)" } ?? "nil") "
                        + "(one subscription per container and connection); use the same rate, or another ScrollClient"
                ))
                return nil
            }
            let token = state.takeID()
            let joins = !hub.consumers.isEmpty
            hub.consumers[token] = Consumer(feed: feed, rate: rate, joining: joins)
            hub.rate = rate
            state.hubs[container] = hub
            if joins {
                Self.send(RequestLine("get", [("container", .string(container))]), purpose: .join(container: container, token: token), in: &state)
            } else {
                Self.send(Self.subscribe(container, rate: rate, wait: false), purpose: .subscribe(container: container, token: token, attempt: 0), in: &state)
            }
            return token
        }
        if let token {
            feed.onRelease { [weak self] in self?.release(container, token: token) }
        }
        return feed
    }

    static func subscribe(_ container: String, rate: Double?, wait: Bool) -> RequestLine {
        var members: [(String, ProtocolValue)] = [("container", .string(container))]
        if let rate { members.append(("rate", .double(rate))) }
        if wait { members.append(("wait", .bool(true))) }
        return RequestLine("subscribe", members)
    }

    /// A consumer is gone: the last one unsubscribes (or, for a container whose resting offset
    /// is tracked, goes back to the tracking rate).
    func release(_ container: String, token: Int) {
        state.withLock { state in
            guard state.ended == nil, var hub = state.hubs[container], hub.consumers.removeValue(forKey: token) != nil else { return }
            guard hub.consumers.isEmpty else {
                state.hubs[container] = hub
                return
            }
            if hub.tracking {
                if hub.rate != Self.trackingRate {
                    hub.rate = Self.trackingRate
                    Self.send(Self.subscribe(container, rate: Self.trackingRate, wait: false), purpose: .subscribe(container: container, token: Self.trackingOnly, attempt: 0), in: &state)
                }
                state.hubs[container] = hub
            } else {
                state.hubs[container] = nil
                Self.send(RequestLine("unsubscribe", [("container", .string(container))]), purpose: .restore, in: &state)
            }
        }
    }

    /// An observation of `container`, with an id of its own (`"swift-N"`).
    func observe(_ container: String, _ sink: any ObservationSink, observation: ScrollObservation) {
        let id = state.withLock { state -> RequestID? in
            if let ended = state.ended {
                sink.finish(ended)
                return nil
            }
            let id = RequestID("swift-\(state.takeID())")
            let members: [(String, ProtocolValue)] = [("container", .string(container))] + observation.members
            do throws(ScrollClientError) {
                _ = try RequestLine("observe", members).encoded(id: id)
            } catch {
                sink.finish(error)
                return nil
            }
            state.observations[id] = ObservationEntry(container: container, members: members, sink: sink)
            Self.send(RequestLine("observe", members), id: id, purpose: .observe(id, restoring: false, attempt: 0), in: &state)
            return id
        }
        if let id, let sink = sink as? any ReleasableSink {
            sink.onRelease { [weak self] in self?.unobserve(id) }
        }
    }

    func unobserve(_ id: RequestID) {
        state.withLock { state in
            guard state.ended == nil, state.observations.removeValue(forKey: id) != nil else { return }
            state.pending[id] = nil
            guard let channel = state.channel, let line = try? RequestLine("unobserve").encoded(id: id) else { return }
            // The reply (`ok` with the observation's id) is nobody's.
            Self.write(line, to: channel)
        }
    }
}
