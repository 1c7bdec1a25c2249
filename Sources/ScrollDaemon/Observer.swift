import NIOCore
import ScrollModel
import ScrollProtocol

/// One connection's observation of one container (docs/design.md §13): a value derived from every
/// state the container publishes, sent only when it differs from the value last sent.
///
/// While the connection's socket is full the newest value waits (latest wins, per
/// observation); when it drains, that value goes out if it still differs from the last one sent,
/// with `old` = that last one. Rates do not apply.
final class Observer {
    let id: RequestID
    let observation: ScrollObservation
    unowned let client: Client
    /// The container observed.
    unowned let container: PublishedContainer
    /// Asked for with `wait` (docs/design.md §20): a `removed` leaves it waiting again.
    let waits: Bool
    /// The value last sent; nil before the first message.
    private(set) var sent: ObservationValue?
    /// A newer value than `sent`, waiting for the socket to drain, with the seq and t of the
    /// state that produced it.
    private var waiting: (value: ObservationValue, seq: Int, time: Timestamp)?

    init(id: RequestID, observation: ScrollObservation, client: Client, container: PublishedContainer, waits: Bool = false) {
        self.id = id
        self.waits = waits
        self.observation = observation
        self.client = client
        self.container = container
    }

    /// Takes `value` as the one last sent, sending nothing: an observation taken back after a
    /// restart (docs/design.md §16) continues from the value the client last heard.
    func assume(_ value: ObservationValue) {
        sent = value
    }

    /// The value in a state published with `seq` at `time`, sent at once.
    func offer(_ value: ObservationValue, seq: Int, time: Timestamp) {
        queue(value, seq: seq, time: time)
        client.sendOutbox()
    }

    /// The value in a state published with `seq` at `time`, its message (if any) put in the
    /// client's outbox; true when it is the first there, so the caller sends the outbox once
    /// for all the messages of a delivery.
    @discardableResult
    func queue(_ value: ObservationValue, seq: Int, time: Timestamp) -> Bool {
        guard value != sent else {
            // Back to what the client has: nothing to tell, also not what waited.
            waiting = nil
            return false
        }
        guard client.channel.isWritable else {
            waiting = (value, seq, time)
            return false
        }
        return queueMessage(value, seq: seq, time: time)
    }

    /// The socket drained: the value that waited, if any, into the client's outbox (which the
    /// client sends); true when it is the first there.
    @discardableResult
    func flush() -> Bool {
        guard let pending = waiting, client.channel.isWritable else { return false }
        waiting = nil
        return queueMessage(pending.value, seq: pending.seq, time: pending.time)
    }

    /// The members every message of this observation starts with, encoded once.
    private lazy var prefix: [UInt8] = {
        var bytes: [UInt8] = []
        ReplyEncoder.observationPrefix(id: id, container: container.name, of: observation.key, into: &bytes)
        return bytes
    }()

    private func queueMessage(_ value: ObservationValue, seq: Int, time: Timestamp) -> Bool {
        let old = sent
        sent = value
        return client.queue { [prefix] buffer in
            buffer.append(contentsOf: prefix)
            ReplyEncoder.observationRest(seq: seq, time: time, old: old, new: value, into: &buffer)
            buffer.append(UInt8(ascii: "\n"))
        }
    }
}
