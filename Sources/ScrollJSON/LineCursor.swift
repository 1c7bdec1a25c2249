#if canImport(Glibc)
import Glibc
#endif

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
        if let newline = Self.newline(in: bytes, from: start) {
            offset = newline + 1
            return (start..<newline, false)
        }
        offset = end
        return (start..<end, true)
    }

    /// The index of the first newline at or after `start`. Contiguous bytes (every caller's)
    /// are searched with `memchr`: called from another module, the generic
    /// `firstIndex(of:)` is not specialized and costs ~70 instructions a byte through the
    /// collection's witnesses, which made loading a log for `run --replay` ~40 000
    /// instructions a line (callgrind; docs/performance-live.md, finding 8).
    private static func newline<Bytes: RandomAccessCollection<UInt8>>(in bytes: Bytes, from start: Int) -> Int? where Bytes.Index == Int {
        let found = bytes.withContiguousStorageIfAvailable { buffer -> Int? in
            guard let base = buffer.baseAddress else { return nil }
            let from = start - bytes.startIndex
            guard let hit = memchr(base + from, Int32(UInt8(ascii: "\n")), buffer.count - from) else { return nil }
            return start + (UnsafeRawPointer(hit) - UnsafeRawPointer(base + from))
        }
        if let found { return found }
        return bytes[start...].firstIndex(of: UInt8(ascii: "\n"))
    }
}
