@testable import ScrollJSON

/// Validates `text` as one JSON value: nil when valid, else the scanner's error.
func jsonError(_ text: String) -> JSONError? {
    jsonError(Array(text.utf8))
}

func jsonError(_ bytes: [UInt8]) -> JSONError? {
    bytes.withUnsafeBytes { raw -> JSONError? in
        var scanner = JSONScanner(raw)
        do throws(JSONError) {
            try scanner.skipValue()
            try scanner.finish()
            return nil
        } catch {
            return error
        }
    }
}

/// Runs `body` on a scanner over `text`.
func scanning<R>(_ text: String, _ body: (inout JSONScanner) throws(JSONError) -> R) throws(JSONError) -> R {
    try Array(text.utf8).withUnsafeBytes { raw in
        Result { () throws(JSONError) in
            var scanner = JSONScanner(raw)
            return try body(&scanner)
        }
    }.get()
}

func number(_ text: String) throws(JSONError) -> JSONNumber {
    try scanning(text) { (scanner) throws(JSONError) in try scanner.readNumber() }
}

/// A small deterministic generator (SplitMix64), so that randomized tests repeat exactly.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}


/// `value` as the encoders write it.
func written(_ value: Double) -> String {
    var buffer: [UInt8] = []
    JSONNumberFormatter.append(value, to: &buffer)
    return String(decoding: buffer, as: UTF8.self)
}
