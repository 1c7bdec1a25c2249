import ScrollJSON
import ScrollModel

/// Encodes a container's state as the one line of docs/design.md §4, byte for byte:
///
///     {"type":"state","container":"main","seq":42,"t":1815000,"phase":"interacting",
///      "contentOffset":{"x":0,"y":123.5},"velocity":{"x":0,"y":812.25},
///      "contentSize":{"width":800,"height":5000},"containerSize":{"width":800,"height":600},
///      "contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},
///      "header":{"height":92.5,"progress":0.5},"visibleRows":{"first":3,"last":16}}
///
/// (one line, no spaces). `header`, `visibleRows`, `stickyRow` (`{"row":K,"top":T}`, docs/design.md
/// §21) and `refreshing` appear only when the state has them;
/// `first`/`last` are `null` when no row is visible. Numbers are shortest round-trip doubles,
/// integral ones without ".0", -0 as 0 (see `JSONByteWriter.number(_:)` for NaN and infinities).
///
/// The line is appended to a caller-owned buffer with no newline, so a publisher can reuse one
/// buffer for every state; nothing is allocated per state once the buffer has grown to size.
/// An encoder remembers the encoded bytes of the parts that rarely change — the opening with
/// the container's name, and the sizes and insets — so a stream of states from one container
/// formats six numbers instead of fourteen; keep one encoder per stream.
public struct StateEncoder: Sendable {
    private var opening: [UInt8] = []
    private var openingName: String?
    private var sizes: [UInt8] = []
    private var sizesKey: SizesKey?

    private struct SizesKey: Equatable {
        var contentSize: Size
        var containerSize: Size
        var contentInsets: EdgeInsets
    }

    public init() {}

    /// Appends the state line; a reply to a request (`get`, `subscribe`) carries the request's
    /// `id` right after `type`: `{"type":"state","id":7,"container":"main",…}`.
    ///
    /// `paused`: the container is paused (docs/design.md §19), and the line says `"paused":true` at
    /// its end; the key is absent otherwise.
    public mutating func encode(_ state: ScrollState, container: String, seq: Int, paused: Bool = false, id: RequestID? = nil, into buffer: inout [UInt8]) {
        if let id {
            // Replies are rare: their opening is written out each time, the broadcasts' kept.
            var replyOpening: [UInt8] = []
            JSONStringFormatter.appendRaw("{\"type\":\"state\",\"id\":", to: &replyOpening)
            replyOpening.append(contentsOf: id.json.utf8)
            JSONStringFormatter.appendRaw(",\"container\":", to: &replyOpening)
            JSONStringFormatter.append(container, to: &replyOpening)
            JSONStringFormatter.appendRaw(",\"seq\":", to: &replyOpening)
            swap(&opening, &replyOpening)
            defer { swap(&opening, &replyOpening) }
            encodeBody(state, seq: seq, paused: paused, into: &buffer)
            return
        }
        if openingName != container {
            opening.removeAll(keepingCapacity: true)
            JSONStringFormatter.appendRaw("{\"type\":\"state\",\"container\":", to: &opening)
            JSONStringFormatter.append(container, to: &opening)
            JSONStringFormatter.appendRaw(",\"seq\":", to: &opening)
            openingName = container
        }
        encodeBody(state, seq: seq, paused: paused, into: &buffer)
    }

    /// Everything after the opening (which `opening` holds).
    private mutating func encodeBody(_ state: ScrollState, seq: Int, paused: Bool, into buffer: inout [UInt8]) {
        let geometry = state.geometry
        let key = SizesKey(contentSize: geometry.contentSize, containerSize: geometry.containerSize, contentInsets: geometry.contentInsets)
        if sizesKey != key {
            sizes.removeAll(keepingCapacity: true)
            sizes.appendJSON(maxCount: 160 + 8 * JSONByteWriter.maxNumberLength) { Self.writeSizes(key, &$0) }
            sizesKey = key
        }
        // One reservation for the whole line: the opening and the sizes (bytes already), 380
        // bytes of fixed text at most, and sixteen numbers.
        let maxCount = opening.count + sizes.count + 380 + 16 * JSONByteWriter.maxNumberLength
        buffer.appendJSON(maxCount: maxCount) { [opening, sizes] w in
            opening.withUnsafeBufferPointer { w.bytes($0) }
            w.integer(Int64(seq))
            w.raw(",\"t\":")
            w.integer(state.time)
            w.raw(Self.phaseAndOffsetKey(state.phase))
            w.coordinates(of: geometry.contentOffset)
            w.raw(",\"velocity\":{\"x\":")
            w.coordinates(of: state.velocity)
            w.byte(UInt8(ascii: ","))
            sizes.withUnsafeBufferPointer { w.bytes($0) }
            Self.writeOptionalMembers(of: state, &w)
            if paused { w.raw(",\"paused\":true") }
            w.byte(UInt8(ascii: "}"))
        }
    }

    /// The header, visible rows, sticky row, refresh and indicators, those the state has.
    private static func writeOptionalMembers(of state: ScrollState, _ w: inout JSONByteWriter) {
        if let header = state.header {
            w.raw(",\"header\":{\"height\":")
            w.number(header.height)
            w.raw(",\"progress\":")
            w.number(header.progress)
            w.byte(UInt8(ascii: "}"))
        }
        if let rows = state.visibleRows {
            w.raw(",\"visibleRows\":{\"first\":")
            row(rows.first, &w)
            w.raw(",\"last\":")
            row(rows.last, &w)
            w.byte(UInt8(ascii: "}"))
        }
        if let sticky = state.stickyRow {
            w.raw(",\"stickyRow\":{\"row\":")
            w.integer(Int64(sticky.row))
            w.raw(",\"top\":")
            w.number(sticky.top)
            w.byte(UInt8(ascii: "}"))
        }
        if let refreshing = state.refreshing { w.raw(refreshing ? ",\"refreshing\":true" : ",\"refreshing\":false") }
        if let indicators = state.indicators, indicators.x != nil || indicators.y != nil {
            write(indicators, &w)
        }
    }

    /// The line as a String (tests, diagnostics); the hot path uses the buffer variant.
    public func encode(_ state: ScrollState, container: String, seq: Int) -> String {
        var encoder = self
        var buffer: [UInt8] = []
        encoder.encode(state, container: container, seq: seq, into: &buffer)
        return String(decoding: buffer, as: UTF8.self)
    }

    private static func writeSizes(_ key: SizesKey, _ w: inout JSONByteWriter) {
        w.raw("\"contentSize\":")
        w.object(key.contentSize)
        w.raw(",\"containerSize\":")
        w.object(key.containerSize)
        w.raw(",\"contentInsets\":{\"top\":")
        w.number(key.contentInsets.top)
        w.raw(",\"leading\":")
        w.number(key.contentInsets.leading)
        w.raw(",\"bottom\":")
        w.number(key.contentInsets.bottom)
        w.raw(",\"trailing\":")
        w.number(key.contentInsets.trailing)
        w.byte(UInt8(ascii: "}"))
    }

    /// The phase and the opening of the offset, up to its first coordinate: one constant per
    /// phase, so a state line writes them with one copy.
    private static func phaseAndOffsetKey(_ phase: ScrollPhase) -> StaticString {
        switch phase {
        case .idle: return ",\"phase\":\"idle\",\"contentOffset\":{\"x\":"
        case .tracking: return ",\"phase\":\"tracking\",\"contentOffset\":{\"x\":"
        case .interacting: return ",\"phase\":\"interacting\",\"contentOffset\":{\"x\":"
        case .decelerating: return ",\"phase\":\"decelerating\",\"contentOffset\":{\"x\":"
        case .animating: return ",\"phase\":\"animating\",\"contentOffset\":{\"x\":"
        }
    }

    /// `,"indicators":{"x":{…},"y":{…}}`, the axes the container scrolls (docs/design.md §22).
    private static func write(_ indicators: ScrollIndicators, _ w: inout JSONByteWriter) {
        w.raw(",\"indicators\":{")
        if let x = indicators.x {
            w.raw("\"x\":")
            write(x, &w)
        }
        if let y = indicators.y {
            if indicators.x != nil { w.byte(UInt8(ascii: ",")) }
            w.raw("\"y\":")
            write(y, &w)
        }
        w.byte(UInt8(ascii: "}"))
    }

    private static func write(_ indicator: ScrollIndicator, _ w: inout JSONByteWriter) {
        w.raw("{\"offset\":")
        w.number(indicator.offset)
        w.raw(",\"length\":")
        w.number(indicator.length)
        w.raw(indicator.visible ? ",\"visible\":true}" : ",\"visible\":false}")
    }

    private static func row(_ index: Int?, _ w: inout JSONByteWriter) {
        if let index {
            w.integer(Int64(index))
        } else {
            w.raw("null")
        }
    }
}

extension JSONByteWriter {
    /// A point after its `{"x":`: `…,"y":…}`.
    @inline(__always)
    fileprivate mutating func coordinates(of point: Point) {
        number(point.x)
        raw(",\"y\":")
        number(point.y)
        byte(UInt8(ascii: "}"))
    }

    /// `{"width":…,"height":…}`.
    fileprivate mutating func object(_ size: Size) {
        raw("{\"width\":")
        number(size.width)
        raw(",\"height\":")
        number(size.height)
        byte(UInt8(ascii: "}"))
    }
}
