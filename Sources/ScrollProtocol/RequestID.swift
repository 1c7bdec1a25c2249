import ScrollJSON

/// The `id` of a request as the JSON text the client sent, so that its reply echoes it exactly:
/// any JSON value, numbers keep their spelling (`1.50` stays `1.50`, a 30-digit integer loses
/// nothing). Whitespace outside strings is dropped from objects and arrays, since it means
/// nothing and a reply must stay on one line.
public struct RequestID: Hashable, Sendable, CustomStringConvertible {
    /// Valid, compact JSON text of one value.
    public let json: String

    init(unchecked json: String) {
        self.json = json
    }

    public init(_ value: Int) {
        json = String(value)
    }

    public init(_ string: String) {
        var bytes: [UInt8] = []
        JSONStringFormatter.append(string, to: &bytes)
        json = String(decoding: bytes, as: UTF8.self)
    }

    /// An id from JSON text; nil unless the text is exactly one valid JSON value.
    public init?(json text: String) {
        var text = text
        let id = text.withUTF8 { utf8 -> RequestID? in
            let raw = UnsafeRawBufferPointer(utf8)
            var scanner = JSONScanner(raw)
            guard let range = try? scanner.skipValue(), (try? scanner.finish()) != nil else { return nil }
            return RequestID(validated: raw, range: range)
        }
        guard let id else { return nil }
        self = id
    }

    /// The id whose already validated value occupies `range` of `line`.
    init(validated line: UnsafeRawBufferPointer, range: Range<Int>) {
        let value = UnsafeRawBufferPointer(rebasing: line[range])
        guard let first = value.first, first == UInt8(ascii: "{") || first == UInt8(ascii: "[") else {
            // Scalars have no insignificant whitespace inside.
            json = String(decoding: value, as: UTF8.self)
            return
        }
        var compact: [UInt8] = []
        compact.reserveCapacity(value.count)
        var inString = false
        var escaped = false
        for b in value {
            if inString {
                if escaped {
                    escaped = false
                } else if b == UInt8(ascii: "\\") {
                    escaped = true
                } else if b == UInt8(ascii: "\"") {
                    inString = false
                }
            } else if b == UInt8(ascii: "\"") {
                inString = true
            } else if b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D {
                continue
            }
            compact.append(b)
        }
        json = String(decoding: compact, as: UTF8.self)
    }

    public var description: String { json }
}
