/// An IPv6 address as the URL standard reads one between a URL's brackets and writes it back:
/// eight 16-bit pieces, spelled in lowercase hexadecimal without leading zeros, the first
/// longest run of two or more zero pieces written `::` (RFC 5952's form). It is the spelling a
/// browser puts in an `Origin` header, so an `origins` entry spelled otherwise
/// (`[0:0:0:0:0:0:0:1]`, `[::0001]`, `[::ffff:127.0.0.1]`) can be told the one it would send.
struct IPv6Address: Equatable {
    /// The eight pieces, most significant first.
    var pieces: [UInt16]

    static let loopback = IPv6Address(pieces: [0, 0, 0, 0, 0, 0, 0, 1])

    init(pieces: [UInt16]) {
        precondition(pieces.count == 8)
        self.pieces = pieces
    }

    /// Reads `text` (no brackets, no zone) as the URL standard's IPv6 parser does: pieces of at
    /// most four hexadecimal digits, one `::` at most, and an IPv4 address in four decimal parts
    /// (no leading zeros) in place of the last two pieces. Nil for anything else.
    init?(_ text: Substring) {
        var input = Reader(Array(text.utf8))
        var pieces = [UInt16](repeating: 0, count: 8)
        var index = 0
        var compress: Int?
        if input.peek == UInt8(ascii: ":") {
            guard input.peek(1) == UInt8(ascii: ":") else { return nil }
            input.skip(2)
            index = 1
            compress = 1
        }
        while let byte = input.peek {
            guard index < 8 else { return nil }
            if byte == UInt8(ascii: ":") {
                guard compress == nil else { return nil }
                input.skip(1)
                index += 1
                compress = index
                continue
            }
            let start = input.position
            var value: UInt16 = 0
            while input.position - start < 4, let digit = input.peek.flatMap(Self.hexValue) {
                value = value << 4 | digit
                input.skip(1)
            }
            if input.peek == UInt8(ascii: ".") {
                // What was read as hexadecimal is the IPv4 address's first part.
                guard input.position > start, index <= 6 else { return nil }
                input.position = start
                guard let (high, low) = Self.ipv4(&input) else { return nil }
                pieces[index] = high
                pieces[index + 1] = low
                index += 2
                break
            }
            guard input.position > start else { return nil }
            if input.peek == UInt8(ascii: ":") {
                input.skip(1)
                guard input.peek != nil else { return nil }
            } else if input.peek != nil {
                return nil
            }
            pieces[index] = value
            index += 1
        }
        if let compress {
            // The pieces read after `::` move to the end; the zeros they leave fill the gap.
            // (`::` took a piece's place when it was read, so at least one zero is left.)
            let moved = index - compress
            let tail = Array(pieces[compress..<index])
            for offset in 0..<moved { pieces[compress + offset] = 0 }
            for (offset, piece) in tail.enumerated() { pieces[8 - moved + offset] = piece }
        } else if index != 8 {
            return nil
        }
        self.pieces = pieces
    }

    /// The address as the URL standard serializes it (without brackets).
    var serialized: String {
        let compress = longestZeroRun
        var output = ""
        var index = 0
        while index < 8 {
            if let run = compress, run.lowerBound == index {
                output += index == 0 ? "::" : ":"
                index = run.upperBound
                continue
            }
            output += String(pieces[index], radix: 16)
            if index != 7 { output += ":" }
            index += 1
        }
        return output
    }

    /// The first longest run of at least two zero pieces, which is written `::`.
    private var longestZeroRun: Range<Int>? {
        var best: Range<Int>?
        var index = 0
        while index < 8 {
            guard pieces[index] == 0 else { index += 1; continue }
            let start = index
            while index < 8, pieces[index] == 0 { index += 1 }
            if index - start > 1, index - start > (best?.count ?? 0) { best = start..<index }
        }
        return best
    }

    /// An IPv4 address in four decimal parts of at most 255 without leading zeros, ending the
    /// text, as two pieces.
    private static func ipv4(_ input: inout Reader) -> (UInt16, UInt16)? {
        var parts: [UInt16] = []
        while parts.count < 4 {
            if !parts.isEmpty {
                guard input.peek == UInt8(ascii: ".") else { return nil }
                input.skip(1)
            }
            guard let first = input.peek, isDecimal(first) else { return nil }
            var part: UInt16 = 0
            var digits = 0
            while let byte = input.peek, isDecimal(byte) {
                guard digits == 0 || part != 0 else { return nil }
                part = part * 10 + UInt16(byte - UInt8(ascii: "0"))
                guard part <= 255 else { return nil }
                digits += 1
                input.skip(1)
            }
            parts.append(part)
        }
        guard input.peek == nil else { return nil }
        return (parts[0] << 8 | parts[1], parts[2] << 8 | parts[3])
    }

    private static func isDecimal(_ byte: UInt8) -> Bool { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }

    private static func hexValue(_ byte: UInt8) -> UInt16? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt16(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt16(byte - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt16(byte - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The bytes of the text and how far they are read.
    private struct Reader {
        let bytes: [UInt8]
        var position = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        var peek: UInt8? { peek(0) }
        func peek(_ ahead: Int) -> UInt8? { position + ahead < bytes.count ? bytes[position + ahead] : nil }
        mutating func skip(_ count: Int) { position += count }
    }
}
