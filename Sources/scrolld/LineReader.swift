#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Reads a file (or standard input) in large chunks and hands out its lines without copying
/// them, each with its 1-based number. The last line may lack its newline: the caller learns
/// that through `isLast`, since a recorder killed mid-write leaves exactly such a line.
struct LineReader {
    /// The longest line read, bytes: the longest an event log holds is a `reload` or `restore`
    /// line carrying every row height (at most 10⁷, each at most 24 bytes of JSON: 240 MB).
    /// Past it the file is not a log (`/dev/zero`, a binary), and reading on would only grow.
    static let maximumLineLength = 256 << 20

    /// A line longer than ``maximumLineLength``.
    struct LineTooLong: Error, CustomStringConvertible {
        var lineNumber: Int
        var description: String { "line \(lineNumber) is longer than 256 MiB, more than an event log's longest line" }
    }

    let fd: FileDescriptor
    let closeWhenDone: Bool
    var chunk: [UInt8]
    var start = 0
    var end = 0
    var eof = false
    var lineNumber = 0

    init(path: String) throws {
        if path == "-" {
            fd = .standardInput
            closeWhenDone = false
        } else {
            fd = try FileDescriptor.open(FilePath(path), .readOnly)
            closeWhenDone = true
        }
        chunk = [UInt8](repeating: 0, count: 1 << 20)
    }

    func close() {
        if closeWhenDone { try? fd.close() }
    }

    /// Calls `body(line, number, isLast)` for each line; `line` excludes the newline.
    mutating func forEachLine(_ body: (UnsafeRawBufferPointer, Int, Bool) throws -> Void) throws {
        while true {
            // Find the next newline in what is buffered (memchr: a word at a time, where a
            // byte-by-byte search cost the replay 7 instructions per byte).
            if let newline = nextNewline() {
                lineNumber += 1
                let lineStart = start
                start = newline + 1
                try chunk.withUnsafeBytes { bytes in
                    try body(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<newline]), lineNumber, false)
                }
                continue
            }
            if eof {
                if end > start {
                    lineNumber += 1
                    let lineStart = start
                    start = end
                    try chunk.withUnsafeBytes { bytes in
                        try body(UnsafeRawBufferPointer(rebasing: bytes[lineStart..<end]), lineNumber, true)
                    }
                }
                return
            }
            try refill()
        }
    }

    /// The index of the first newline in `chunk[start..<end]`, if any.
    private func nextNewline() -> Int? {
        guard end > start else { return nil }
        return chunk.withUnsafeBytes { bytes in
            memchr(bytes.baseAddress! + start, Int32(UInt8(ascii: "\n")), end - start).map { UnsafeRawPointer($0) - bytes.baseAddress! }
        }
    }

    private mutating func refill() throws {
        // Keep the partial line, make room, read more; grow for a line longer than the chunk.
        if start > 0 {
            let remaining = end - start
            if remaining > 0 { chunk.withUnsafeMutableBufferPointer { $0.baseAddress!.update(from: $0.baseAddress! + start, count: remaining) } }
            start = 0
            end = remaining
        }
        if end == chunk.count {
            guard end < Self.maximumLineLength else { throw LineTooLong(lineNumber: lineNumber + 1) }
            chunk += [UInt8](repeating: 0, count: Swift.min(chunk.count, Self.maximumLineLength - end))
        }
        let count = try chunk.withUnsafeMutableBytes { bytes in
            try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: bytes[end...]), retryOnInterrupt: true)
        }
        if count == 0 { eof = true } else { end += count }
    }
}
