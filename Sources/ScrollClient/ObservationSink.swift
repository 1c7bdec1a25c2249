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
    let feed: Feed<ObservedChange<Value>>
    private let decode: @Sendable (ProtocolValue) -> Value?
    private let last = Mutex<Value?>(nil)

    init(_ key: ObservedValue<Value>) {
        decode = key.decode
        // Changes not delivered fold into the next: it keeps the oldest one's `old`, and is
        // `resumed` when any of them was. A consumer more than Feed.backlog behind: the newest
        // replaces the last one waiting, and both go when that makes no change (the daemon's
        // own rule for a slow client, docs/design.md §13).
        feed = Feed(absorb: { older, newer in
            var merged = newer
            merged.old = older.old
            merged.resumed = older.resumed || newer.resumed
            return merged
        }, keepsMerged: { $0.old != $0.new || $0.resumed })
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
        feed.yield(ObservedChange(old: old, new: value, seq: message.seq, time: message.time, resumed: resumed))
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
