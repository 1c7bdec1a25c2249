/// The `code` of an error reply (docs/design.md §7).
public enum ErrorCode: String, Hashable, Sendable, CaseIterable {
    /// Not JSON, not an object, or a required key missing.
    case badRequest = "bad_request"
    case unknownOp = "unknown_op"
    /// Only the daemon knows its containers; the decoder never produces this.
    case unknownContainer = "unknown_container"
    /// A key with the wrong type or out of range, or a key `configure` does not know.
    case invalidValue = "invalid_value"
    /// A line over `WireProtocol.maximumLineLength`; the connection is closed after it.
    case tooLarge = "too_large"
    /// A peer whose uid may not connect.
    case forbidden
}
