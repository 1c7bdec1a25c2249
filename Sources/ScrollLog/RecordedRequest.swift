import ScrollJSON
import ScrollModel

/// A request line of a recorded session (docs/design.md §17): a request that changed the daemon's
/// containers, stamped on the input's clock at the instant it was applied.
///
/// The request stays JSON text here: the event log carries it, the wire protocol reads it.
public struct RecordedRequest: Hashable, Sendable {
    /// µs, CLOCK_MONOTONIC: when the daemon applied it.
    public var time: Timestamp
    /// The connection it came from, numbered by the daemon from 1; 0 is the daemon itself (its
    /// configuration at the start of the recording and at each reload).
    public var client: Int
    /// The request object as received, without its `id`.
    public var json: [UInt8]

    public init(time: Timestamp, client: Int, json: [UInt8]) {
        self.time = time
        self.client = client
        self.json = json
    }
}
