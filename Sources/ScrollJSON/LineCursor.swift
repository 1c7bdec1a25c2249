/// Walks the lines of bytes held in memory (JSON Lines, a libinput transcript): each line
/// without its newline, numbered from 1, the last one flagged when no newline ends it — what a
/// recorder killed mid-write leaves, which readers treat apart.
package struct LineCursor: Sendable {
    /// Where the next line starts.
    package private(set) var offset = 0
    /// The number of the line returned last (0 before the first).
    package private(set) var lineNumber = 0

    package init() {}

    /// The next line's range in `bytes` and whether it is an unterminated last line; nil at the
    /// end.
    package mutating func next<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes) -> (range: Range<Int>, isLast: Bool)? where Bytes.Index == Int {
        let end = bytes.endIndex
        guard offset < end else { return nil }
        lineNumber += 1
        let start = offset
        if let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
            offset = newline + 1
            return (start..<newline, false)
        }
        offset = end
        return (start..<end, true)
    }
}
