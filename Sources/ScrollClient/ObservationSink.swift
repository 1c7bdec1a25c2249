import ScrollModel
import ScrollProtocol
import Synchronization

/// A reply line, decoded, with its bytes (for what the decoder does not keep, such as a
/// `devices` reply's `focus`).
struct Received: Sendable {
    var reply: Reply
    var line: [UInt8]
}

/// An observation's consumer, whatever the type of its values.
protocol ObservationSink: Sendable {
    func deliver(_ message: ObservationMessage, resumed: Bool)
    func finish(_ error: ScrollClientError?)
}

/// Decodes an observation's values into `Value` and keeps the last one, the next message's
/// `old` (the daemon's `old` is the value it last sent, which this consumer received; after a
/// reconnection it is the value this consumer had before).
final class TypedObservationSink<Value: Hashable & Sendable>: ObservationSink {
    let feed: Feed<Observation<Value>>
    private let decode: @Sendable (ProtocolValue) -> Value?
    private let last = Mutex<Value?>(nil)

    init(_ key: ObservedValue<Value>) {
        decode = key.decode
        // A consumer more than Feed.backlog behind: the newest replaces the last one waiting,
        // keeping its `old`, and both go when that makes no change (the daemon's own rule for a
        // slow client, docs/design.md §13).
        feed = Feed { waiting, newest in
            var merged = newest
            merged.old = waiting.old
            merged.resumed = waiting.resumed || newest.resumed
            return merged.old == merged.new && !merged.resumed ? nil : merged
        }
    }

    func deliver(_ message: ObservationMessage, resumed: Bool) {
        guard let value = decode(message.new) else {
            feed.finish(.protocolViolation("scrolld sent a value of \(message.of) this client cannot read: \(message.new)"))
            return
        }
        let old = last.withLock { last -> Value? in
            defer { last = value }
            return last
        }
        feed.yield(Observation(old: old, new: value, seq: message.seq, time: message.time, resumed: resumed))
    }

    func finish(_ error: ScrollClientError?) {
        feed.finish(error)
    }
}

/// A sink whose consumer can go away on its own.
protocol ReleasableSink: Sendable {
    func onRelease(_ body: @escaping @Sendable () -> Void)
}

extension TypedObservationSink: ReleasableSink {
    func onRelease(_ body: @escaping @Sendable () -> Void) {
        feed.onRelease(body)
    }
}
