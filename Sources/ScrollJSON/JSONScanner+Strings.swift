extension JSONScanner {
    /// Reads a string value and decodes its escapes.
    public mutating func readString() throws(JSONError) -> String {
        skipWhitespace()
        guard byte(at: cursor) == UInt8(ascii: "\"") else { throw failure(expected: "a string") }
        return decodeString(try scanString())
    }

    /// Whether a key is `name`, compared on the raw bytes unless the key contains escapes.
    public func key(_ key: JSONKey, is name: StaticString) -> Bool {
        withKeyBytes(key) { raw in name.withUTF8Buffer { raw.elementsEqual($0) } }
    }

    /// Calls `body` with a key's decoded UTF-8 bytes: the line's own bytes when the key has no
    /// escapes (the common case, no allocation), a decoded copy otherwise.
    public func withKeyBytes<R>(_ key: JSONKey, _ body: (UnsafeRawBufferPointer) -> R) -> R {
        guard key.hasEscapes else { return body(UnsafeRawBufferPointer(rebasing: bytes[key.range.clamped(to: 0..<bytes.count)])) }
        var decoded = decodeString(key)
        return decoded.withUTF8 { body(UnsafeRawBufferPointer($0)) }
    }

    /// Decodes a key (or any string token) this scanner produced.
    public func decodeString(_ token: JSONKey) -> String {
        let range = token.range.clamped(to: 0..<bytes.count)
        let raw = UnsafeRawBufferPointer(rebasing: bytes[range])
        guard token.hasEscapes else { return String(decoding: raw, as: UTF8.self) }
        // The unescaping below trusts its input; make sure it is the string scanned before and
        // not a token from another scanner (rare: only strings with escapes pay for this).
        var check = JSONScanner(bytes, position: range.lowerBound - 1)
        guard range.lowerBound > 0, check.byte(at: range.lowerBound - 1) == UInt8(ascii: "\""),
              (try? check.scanString()) == token
        else { return String(decoding: raw, as: UTF8.self) }
        // Every escape is at least as long as the UTF-8 it stands for, so the raw length is
        // enough room.
        return String(unsafeUninitializedCapacity: raw.count) { out in
            var i = 0
            var n = 0
            while i < raw.count {
                let b = raw[i]
                guard b == UInt8(ascii: "\\") else {
                    out[n] = b
                    n += 1
                    i += 1
                    continue
                }
                let e = raw[i + 1]
                i += 2
                switch e {
                case UInt8(ascii: "b"): out[n] = 0x08
                case UInt8(ascii: "f"): out[n] = 0x0C
                case UInt8(ascii: "n"): out[n] = 0x0A
                case UInt8(ascii: "r"): out[n] = 0x0D
                case UInt8(ascii: "t"): out[n] = 0x09
                case UInt8(ascii: "u"):
                    var scalar = UInt32(Self.hexValue(raw, i))
                    i += 4
                    if scalar >= 0xD800 && scalar <= 0xDBFF {
                        let low = UInt32(Self.hexValue(raw, i + 2))
                        i += 6
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    n += Self.encodeUTF8(scalar, into: out, at: n)
                    continue
                default: out[n] = e  // '"', '\\' and '/' stand for themselves
                }
                n += 1
            }
            return n
        }
    }

    /// Steps over a string whose opening quote is at `cursor`, validating escapes and UTF-8.
    package mutating func scanString() throws(JSONError) -> JSONKey {
        cursor += 1
        let start = cursor
        let count = bytes.count
        var hasEscapes = false
        while true {
            // Plain ASCII is the bulk of any log; keep its loop minimal.
            while cursor < count {
                let b = bytes[cursor]
                guard b >= 0x20, b < 0x80, b != UInt8(ascii: "\""), b != UInt8(ascii: "\\") else { break }
                cursor += 1
            }
            guard cursor < count else {
                throw JSONError(.unexpectedEnd(expected: "'\"'"), column: count + 1)
            }
            let b = bytes[cursor]
            switch b {
            case UInt8(ascii: "\""):
                let range = start..<cursor
                cursor += 1
                return JSONKey(range: range, hasEscapes: hasEscapes)
            case UInt8(ascii: "\\"):
                hasEscapes = true
                try scanEscape()
            case 0..<0x20:
                throw JSONError(.controlCharacter(b), column: cursor + 1)
            default:
                try scanUTF8Sequence()
            }
        }
    }

    /// Steps over the escape whose backslash is at `cursor`.
    private mutating func scanEscape() throws(JSONError) {
        let escape = cursor
        switch byte(at: escape + 1) {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"),
             UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            cursor += 2
        case UInt8(ascii: "u"):
            let unit = try scanHex4(at: escape + 2)
            cursor = escape + 6
            if unit >= 0xDC00 && unit <= 0xDFFF {
                throw JSONError(.unpairedSurrogate, column: escape + 1)
            }
            guard unit >= 0xD800 && unit <= 0xDBFF else { return }
            // A high surrogate means nothing without the low one right after it.
            let low = "a low surrogate \\uDC00-\\uDFFF"
            guard cursor < bytes.count else { throw failure(expected: low) }
            guard bytes[cursor] == UInt8(ascii: "\\") else { throw JSONError(.unpairedSurrogate, column: escape + 1) }
            guard cursor + 1 < bytes.count else { throw failure(expected: low, at: cursor + 1) }
            guard bytes[cursor + 1] == UInt8(ascii: "u") else { throw JSONError(.unpairedSurrogate, column: escape + 1) }
            let second = try scanHex4(at: cursor + 2)
            guard second >= 0xDC00 && second <= 0xDFFF else { throw JSONError(.unpairedSurrogate, column: escape + 1) }
            cursor += 6
        default:
            if escape + 1 >= bytes.count { throw failure(expected: "an escape sequence", at: escape + 1) }
            throw JSONError(.invalidEscape, column: escape + 1)
        }
    }

    private func scanHex4(at offset: Int) throws(JSONError) -> UInt16 {
        var value: UInt16 = 0
        for i in offset..<offset + 4 {
            guard i < bytes.count else { throw failure(expected: "four hex digits", at: i) }
            guard let digit = Self.hexDigit(bytes[i]) else { throw JSONError(.invalidUnicodeEscape, column: i + 1) }
            value = value << 4 | UInt16(digit)
        }
        return value
    }

    /// Steps over one multi-byte UTF-8 sequence, rejecting overlong forms, surrogates and
    /// code points above U+10FFFF (the well-formed table of Unicode §3.9).
    private mutating func scanUTF8Sequence() throws(JSONError) {
        let lead = bytes[cursor]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: throw JSONError(.invalidUTF8, column: cursor + 1)
        }
        for k in 1..<length {
            let i = cursor + k
            guard i < bytes.count else { throw failure(expected: "the rest of a UTF-8 sequence", at: i) }
            let b = bytes[i]
            guard b >= low && b <= high else { throw JSONError(.invalidUTF8, column: cursor + 1) }
            low = 0x80
            high = 0xBF
        }
        cursor += length
    }

    static func hexDigit(_ b: UInt8) -> UInt8? {
        switch b {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return b - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return b - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return b - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Four hex digits already validated by `scanHex4`.
    private static func hexValue(_ raw: UnsafeRawBufferPointer, _ offset: Int) -> UInt16 {
        var value: UInt16 = 0
        for i in offset..<offset + 4 { value = value << 4 | UInt16(hexDigit(raw[i]) ?? 0) }
        return value
    }

    private static func encodeUTF8(_ scalar: UInt32, into out: UnsafeMutableBufferPointer<UInt8>, at n: Int) -> Int {
        switch scalar {
        case 0..<0x80:
            out[n] = UInt8(scalar)
            return 1
        case 0x80..<0x800:
            out[n] = UInt8(0xC0 | scalar >> 6)
            out[n + 1] = UInt8(0x80 | scalar & 0x3F)
            return 2
        case 0x800..<0x10000:
            out[n] = UInt8(0xE0 | scalar >> 12)
            out[n + 1] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[n + 2] = UInt8(0x80 | scalar & 0x3F)
            return 3
        default:
            out[n] = UInt8(0xF0 | scalar >> 18)
            out[n + 1] = UInt8(0x80 | scalar >> 12 & 0x3F)
            out[n + 2] = UInt8(0x80 | scalar >> 6 & 0x3F)
            out[n + 3] = UInt8(0x80 | scalar & 0x3F)
            return 4
        }
    }
}
