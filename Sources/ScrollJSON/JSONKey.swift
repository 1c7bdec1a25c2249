/// An object key as it appears in the line: the bytes between its quotes. Keys are compared
/// without decoding them, so only a key that contains escapes costs an allocation.
public struct JSONKey: Hashable, Sendable {
    /// The key's raw bytes, without the quotes.
    public internal(set) var range: Range<Int>
    /// Whether the raw bytes contain a backslash escape.
    public internal(set) var hasEscapes: Bool

    /// Only a scanner makes keys, so their ranges are always within its input.
    init(range: Range<Int>, hasEscapes: Bool) {
        self.range = range
        self.hasEscapes = hasEscapes
    }
}
