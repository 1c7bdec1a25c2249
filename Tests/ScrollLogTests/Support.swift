@testable import ScrollLog
@testable import ScrollJSON
import ScrollModel

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

let headerLine = #"{"format":"scrolld-events","version":1,"created":"2025-03-01T12:00:00Z","source":"test"}"#

/// Parses a whole log given as text, collecting the warnings' messages.
func read(_ text: String) throws(EventLogError) -> (log: EventLog, warnings: [String]) {
    var warnings: [String] = []
    let log = try EventLog(parsing: Array(text.utf8)) { warnings.append($0.description) }
    return (log, warnings)
}

/// The events of a log made of the header and `lines`, each newline-terminated.
func events(_ lines: String...) throws(EventLogError) -> [ScrollEvent] {
    try read(([headerLine] + lines).map { $0 + "\n" }.joined()).log.events
}

/// The message of the error reading `text` throws, or nil if it reads.
func readError(_ text: String) -> String? {
    do {
        _ = try read(text)
        return nil
    } catch {
        return error.description
    }
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

/// The repository's examples/ directory.
let examplesDirectory: String = {
    var path = #filePath
    for _ in 0..<3 { path = String(path[..<path.lastIndex(of: "/")!]) }
    return path + "/examples"
}()
