/// Writes strings as JSON string literals straight into a byte buffer.
public enum JSONStringFormatter {
    /// Appends `string` in quotes, escaping '"', '\' and the control characters below 0x20
    /// (as `\u00XX`, the one form every reader understands). Everything else is written as
    /// the UTF-8 it is, since JSON text is UTF-8 anyway.
    public static func append(_ string: String, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\""))
        var string = string
        string.withUTF8 { utf8 in
            var runStart = 0
            for (i, b) in utf8.enumerated() where b < 0x20 || b == UInt8(ascii: "\"") || b == UInt8(ascii: "\\") {
                buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart..<i]))
                runStart = i + 1
                appendEscape(b, to: &buffer)
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: utf8[runStart...]))
        }
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends a static ASCII fragment of JSON (keys, punctuation) as is.
    @inline(__always)
    package static func appendRaw(_ text: StaticString, to buffer: inout [UInt8]) {
        text.withUTF8Buffer { buffer.append(contentsOf: $0) }
    }

    private static func appendEscape(_ b: UInt8, to buffer: inout [UInt8]) {
        buffer.append(UInt8(ascii: "\\"))
        guard b < 0x20 else {
            buffer.append(b)
            return
        }
        let hex: StaticString = "0123456789abcdef"
        appendRaw("u00", to: &buffer)
        hex.withUTF8Buffer { digits in
            buffer.append(digits[Int(b >> 4)])
            buffer.append(digits[Int(b & 0xF)])
        }
    }
}

/// The first `limit` Unicode scalars of `string`, and whether that is not all of it: how a
/// message shortens what it quotes. Scalars, not Characters: one Character may hold any
/// number of combining marks, so counting those would cut nothing. Counting stops at the
/// limit, so a long string costs no more than a short one.
package func scalarPrefix(_ string: String, limit: Int) -> (head: String, isCut: Bool) {
    let scalars = string.unicodeScalars
    guard let end = scalars.index(scalars.startIndex, offsetBy: limit, limitedBy: scalars.endIndex),
          end != scalars.endIndex else { return (string, false) }
    return (String(scalars[..<end]), true)
}

/// A string from the input as a JSON literal, shortened to `limit` Unicode scalars
/// (``scalarPrefix(_:limit:)``): safe to print in one line of a terminal whatever it contains.
package func quoted(_ string: String, limit: Int = 40) -> String {
    var bytes: [UInt8] = []
    let (head, isCut) = scalarPrefix(string, limit: limit)
    JSONStringFormatter.append(isCut ? head + "…" : string, to: &bytes)
    return String(decoding: bytes, as: UTF8.self)
}
