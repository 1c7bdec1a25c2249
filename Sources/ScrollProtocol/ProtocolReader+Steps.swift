import ScrollJSON

/// The scanner's steps for a second pass over values the first pass has validated. A syntax
/// error cannot happen there; should one ever appear, it is reported as `bad_request`.
extension ProtocolReader {
    mutating func peekKind() throws(ProtocolError) -> JSONValueKind {
        do throws(JSONError) { return try scanner.peekValueKind() } catch { throw .syntax(error) }
    }

    mutating func beginObject() throws(ProtocolError) {
        do throws(JSONError) { try scanner.beginObject() } catch { throw .syntax(error) }
    }

    mutating func nextKey() throws(ProtocolError) -> JSONKey? {
        do throws(JSONError) { return try scanner.nextKey() } catch { throw .syntax(error) }
    }

    mutating func beginArray() throws(ProtocolError) {
        do throws(JSONError) { try scanner.beginArray() } catch { throw .syntax(error) }
    }

    mutating func nextElement() throws(ProtocolError) -> Bool {
        do throws(JSONError) { return try scanner.nextElement() } catch { throw .syntax(error) }
    }

    /// Steps over the next value and returns its range.
    mutating func skipValue() throws(ProtocolError) -> Range<Int> {
        do throws(JSONError) { return try scanner.skipValue() } catch { throw .syntax(error) }
    }

    mutating func readString() throws(ProtocolError) -> String {
        do throws(JSONError) { return try scanner.readString() } catch { throw .syntax(error) }
    }

    mutating func readNumber() throws(ProtocolError) -> JSONNumber {
        do throws(JSONError) { return try scanner.readNumber() } catch { throw .syntax(error) }
    }

    mutating func readBool() throws(ProtocolError) -> Bool {
        do throws(JSONError) { return try scanner.readBool() } catch { throw .syntax(error) }
    }

    mutating func readNull() throws(ProtocolError) {
        do throws(JSONError) { try scanner.readNull() } catch { throw .syntax(error) }
    }
}
