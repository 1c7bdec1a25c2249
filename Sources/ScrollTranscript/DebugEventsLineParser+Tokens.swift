/// The tokens of a line: whitespace, words, numbers, and the failures they report.
extension DebugEventsLineParser {
    /// Skips spaces and tabs: how many, and whether all were spaces.
    @discardableResult
    mutating func skipSpaces() -> (spaces: Int, onlySpaces: Bool) {
        var count = 0
        var onlySpaces = true
        while position < end, Self.isSpace(bytes[position]) {
            if bytes[position] != UInt8(ascii: " ") { onlySpaces = false }
            count += 1
            position += 1
        }
        return (count, onlySpaces)
    }

    /// The next run of non-whitespace bytes, skipping whitespace before it.
    mutating func token() -> Range<Int>? {
        skipSpaces()
        guard position < end else { return nil }
        let start = position
        while position < end, !Self.isSpace(bytes[position]) { position += 1 }
        return start..<position
    }

    mutating func peekToken() -> Range<Int>? {
        let save = position
        defer { position = save }
        return token()
    }

    func text(_ range: Range<Int>) -> String {
        String(decoding: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    func isDigits(_ range: Range<Int>) -> Bool {
        !range.isEmpty && range.allSatisfy { Self.isDigit(bytes[$0]) }
    }

    /// A failure at the current position. Unless told, it may be the work of a cut-off line
    /// when nothing follows the offending token (or the line ended where more was expected).
    func error(_ problem: DebugEventsError.Problem, truncatable: Bool? = nil) -> DebugEventsLineFailure {
        var rest = position
        while rest < end, Self.isSpace(bytes[rest]) { rest += 1 }
        return DebugEventsLineFailure(error: DebugEventsError(line: lineNumber, problem: problem), truncatable: truncatable ?? (rest == end))
    }
}
