import NIOCore

extension ByteBuffer {
    /// Where the last of the buffer's lines starts (the readable bytes end with a newline): the
    /// latest state of a published batch (`Feed.latest`). A loop over the raw bytes: every
    /// publish runs it, and the generic `readableBytesView.lastIndex(of:)` it replaces cost
    /// ~1 500 instructions more for a 420-byte line (docs/performance-live.md, finding 8).
    var lastLineStart: Int {
        withUnsafeReadableBytes { bytes in
            var index = bytes.count - 1
            while index > 0, bytes[index - 1] != UInt8(ascii: "\n") { index -= 1 }
            return readerIndex + Swift.max(index, 0)
        }
    }
}
