import ScrollJSON
import ScrollModel

/// A line of a recorded session other than an input event (docs/design.md §17,
/// docs/event-log.md): a request that changed the daemon's containers, a configuration put in
/// force, or what a restart took back, stamped on the input's clock at the instant it was
/// applied.
///
/// The command stays JSON text here: the event log carries it, the session reads it.
public struct RecordedRequest: Hashable, Sendable {
    /// Which line it is.
    public enum Kind: Hashable, Sendable {
        /// `"type":"request"`: ``json`` is the request object.
        case request
        /// `"type":"reload"`: ``json`` is the whole line, with its `configuration`.
        case reload
        /// `"type":"restore"`: ``json`` is the whole line, with its `containers` and `focus`.
        case restore
        /// `"type":"desktop"`: ``json`` is the whole line, with its `desktop` (docs/design.md §23).
        case desktop
    }

    /// µs, CLOCK_MONOTONIC: when the daemon applied it.
    public var time: Timestamp
    /// The connection it came from, numbered by the daemon from 1; 0 is the daemon itself (its
    /// configuration at the start of the recording and at each reload).
    public var client: Int
    public var kind: Kind
    /// The request object as received, without its `id`; for a reload or restore, the line.
    public var json: [UInt8]

    public init(time: Timestamp, client: Int, kind: Kind = .request, json: [UInt8]) {
        self.time = time
        self.client = client
        self.kind = kind
        self.json = json
    }
}
