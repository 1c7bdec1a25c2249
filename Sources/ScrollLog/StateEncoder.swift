import ScrollModel

/// Encodes a container's state as the one line of DESIGN §4, byte for byte:
///
///     {"type":"state","container":"main","seq":42,"t":1815000,"phase":"interacting",
///      "contentOffset":{"x":0,"y":123.5},"velocity":{"x":0,"y":812.25},
///      "contentSize":{"width":800,"height":5000},"containerSize":{"width":800,"height":600},
///      "contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},
///      "header":{"height":92.5,"progress":0.5},"visibleRows":{"first":3,"last":16}}
///
/// (one line, no spaces). `header` and `visibleRows` appear only when the state has them;
/// `first`/`last` are `null` when no row is visible. Numbers are shortest round-trip doubles,
/// integral ones without ".0", -0 as 0 (see `JSONNumberFormatter` for NaN and infinities).
///
/// The line is appended to a caller-owned buffer with no newline, so a publisher can reuse one
/// buffer for every state and frame lines as it likes; nothing is allocated per state once the
/// buffer has grown to size.
public struct StateEncoder: Sendable {
    public init() {}

    public func encode(_ state: ScrollState, container: String, seq: Int, into buffer: inout [UInt8]) {
        let geometry = state.geometry
        raw("{\"type\":\"state\",\"container\":", &buffer)
        JSONStringFormatter.append(container, to: &buffer)
        raw(",\"seq\":", &buffer)
        JSONNumberFormatter.append(seq, to: &buffer)
        raw(",\"t\":", &buffer)
        JSONNumberFormatter.append(state.time, to: &buffer)
        raw(",\"phase\":\"", &buffer)
        buffer.append(contentsOf: state.phase.rawValue.utf8)
        raw("\",\"contentOffset\":{\"x\":", &buffer)
        number(geometry.contentOffset.x, &buffer)
        raw(",\"y\":", &buffer)
        number(geometry.contentOffset.y, &buffer)
        raw("},\"velocity\":{\"x\":", &buffer)
        number(state.velocity.x, &buffer)
        raw(",\"y\":", &buffer)
        number(state.velocity.y, &buffer)
        raw("},\"contentSize\":{\"width\":", &buffer)
        number(geometry.contentSize.width, &buffer)
        raw(",\"height\":", &buffer)
        number(geometry.contentSize.height, &buffer)
        raw("},\"containerSize\":{\"width\":", &buffer)
        number(geometry.containerSize.width, &buffer)
        raw(",\"height\":", &buffer)
        number(geometry.containerSize.height, &buffer)
        raw("},\"contentInsets\":{\"top\":", &buffer)
        number(geometry.contentInsets.top, &buffer)
        raw(",\"leading\":", &buffer)
        number(geometry.contentInsets.leading, &buffer)
        raw(",\"bottom\":", &buffer)
        number(geometry.contentInsets.bottom, &buffer)
        raw(",\"trailing\":", &buffer)
        number(geometry.contentInsets.trailing, &buffer)
        buffer.append(UInt8(ascii: "}"))
        if let header = state.header {
            raw(",\"header\":{\"height\":", &buffer)
            number(header.height, &buffer)
            raw(",\"progress\":", &buffer)
            number(header.progress, &buffer)
            buffer.append(UInt8(ascii: "}"))
        }
        if let rows = state.visibleRows {
            raw(",\"visibleRows\":{\"first\":", &buffer)
            row(rows.first, &buffer)
            raw(",\"last\":", &buffer)
            row(rows.last, &buffer)
            buffer.append(UInt8(ascii: "}"))
        }
        buffer.append(UInt8(ascii: "}"))
    }

    /// The line as a String (tests, diagnostics); the hot path uses the buffer variant.
    public func encode(_ state: ScrollState, container: String, seq: Int) -> String {
        var buffer: [UInt8] = []
        encode(state, container: container, seq: seq, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    @inline(__always)
    private func raw(_ text: StaticString, _ buffer: inout [UInt8]) {
        JSONStringFormatter.appendRaw(text, to: &buffer)
    }

    @inline(__always)
    private func number(_ value: Double, _ buffer: inout [UInt8]) {
        JSONNumberFormatter.append(value, to: &buffer)
    }

    private func row(_ index: Int?, _ buffer: inout [UInt8]) {
        if let index {
            JSONNumberFormatter.append(index, to: &buffer)
        } else {
            raw("null", &buffer)
        }
    }
}
