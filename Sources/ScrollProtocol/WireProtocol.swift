/// The constants of the socket protocol (docs/design.md §7) that both ends must agree on.
public enum WireProtocol {
    /// The `protocol` a welcome announces.
    public static let version = 1
    /// A request line longer than this (newline excluded) closes the connection with
    /// `too_large`. The decoders themselves take lines of any length, in linear time: the limit
    /// is the reader's to enforce before it buffers more.
    public static let maximumLineLength = 64 * 1024
}
