import NIOCore

/// The state lines a container published since they were last delivered, and where the last
/// of them begins: the latest state (`PublishedContainer.latest`, what a slow or rate-limited subscriber
/// gets). Kept as each line is written, not searched for at every delivery: scanning back over
/// a 420-byte line cost every publish ~2 100 instructions (callgrind; docs/performance-live.md,
/// finding 8).
struct PublishedBatch {
    private(set) var lines = ByteBuffer()
    private var lastLineStart = 0

    /// Appends one state line (its bytes end with the newline).
    mutating func append(line: [UInt8]) {
        lastLineStart = lines.writerIndex
        lines.writeBytes(line)
    }

    /// The last line, sharing the batch's storage.
    var latest: ByteBuffer {
        lines.getSlice(at: lastLineStart, length: lines.writerIndex - lastLineStart)!
    }
}
