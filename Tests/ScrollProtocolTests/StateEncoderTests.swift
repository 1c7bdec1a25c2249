@testable import ScrollProtocol
import ScrollModel
import Testing

@Suite struct StateEncoderTests {
    var encoder = StateEncoder()

    func state(header: HeaderState? = nil, rows: VisibleRows? = nil) -> ScrollState {
        ScrollState(
            time: 1_815_000,
            phase: .interacting,
            geometry: ScrollGeometry(
                contentOffset: Point(x: 0, y: 123.5),
                contentSize: Size(width: 800, height: 5000),
                containerSize: Size(width: 800, height: 600),
                contentInsets: EdgeInsets()
            ),
            velocity: Point(x: 0, y: 812.25),
            header: header,
            visibleRows: rows
        )
    }

    @Test func encodesTheContractExampleByteForByte() {
        let line = encoder.encode(
            state(header: HeaderState(height: 92.5, progress: 0.5), rows: VisibleRows(first: 3, last: 16)),
            container: "main",
            seq: 42
        )
        #expect(line == #"{"type":"state","container":"main","seq":42,"t":1815000,"phase":"interacting","contentOffset":{"x":0,"y":123.5},"velocity":{"x":0,"y":812.25},"contentSize":{"width":800,"height":5000},"containerSize":{"width":800,"height":600},"contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},"header":{"height":92.5,"progress":0.5},"visibleRows":{"first":3,"last":16}}"#)
    }

    @Test func omitsHeaderAndRowsWhenNotConfigured() {
        #expect(encoder.encode(state(), container: "main", seq: 1) == #"{"type":"state","container":"main","seq":1,"t":1815000,"phase":"interacting","contentOffset":{"x":0,"y":123.5},"velocity":{"x":0,"y":812.25},"contentSize":{"width":800,"height":5000},"containerSize":{"width":800,"height":600},"contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0}}"#)
        #expect(encoder.encode(state(rows: VisibleRows.empty), container: "main", seq: 1).hasSuffix(#""trailing":0},"visibleRows":{"first":null,"last":null}}"#))
        #expect(encoder.encode(state(header: HeaderState(height: 44, progress: 1)), container: "main", seq: 1).hasSuffix(#""trailing":0},"header":{"height":44,"progress":1}}"#))
    }

    @Test func printsFullPrecisionAndNeverNegativeZero() {
        var s = state(rows: VisibleRows(first: 0, last: nil))
        s.phase = .decelerating
        s.geometry.contentOffset = Point(x: -0.0, y: 0.1 + 0.2)
        s.velocity = Point(x: -1e-7, y: 1e16)
        s.geometry.contentInsets = EdgeInsets(top: -0.0, leading: 2.5, bottom: 9_007_199_254_740_991, trailing: -44)
        #expect(encoder.encode(s, container: "a\"b", seq: 0) == #"{"type":"state","container":"a\"b","seq":0,"t":1815000,"phase":"decelerating","contentOffset":{"x":0,"y":0.30000000000000004},"velocity":{"x":-1e-07,"y":1e+16},"contentSize":{"width":800,"height":5000},"containerSize":{"width":800,"height":600},"contentInsets":{"top":0,"leading":2.5,"bottom":9007199254740991,"trailing":-44},"visibleRows":{"first":0,"last":null}}"#)
    }

    /// Every member a state can have, each number as long as a number gets: the line fits the
    /// reservations its parts make on the stack (the debug build traps on one that overruns, or
    /// that is too large for the stack and would cost an allocation per state).
    @Test func theLongestStateFitsItsReservations() {
        let n = -1.7976931348623157e+308
        let thumb = ScrollIndicator(offset: n, length: n, visible: true)
        var s = ScrollState(
            time: .min, phase: .decelerating,
            geometry: ScrollGeometry(
                contentOffset: Point(x: n, y: n), contentSize: Size(width: n, height: n),
                containerSize: Size(width: n, height: n), contentInsets: EdgeInsets(top: n, leading: n, bottom: n, trailing: n)
            ),
            velocity: Point(x: n, y: n), header: HeaderState(height: n, progress: n),
            visibleRows: VisibleRows(first: .min, last: .min), stickyRow: StickyRow(row: .min, top: n),
            refreshing: false, indicators: ScrollIndicators(x: thumb, y: thumb)
        )
        let name = String(repeating: "\u{1}", count: 256)
        var encoder = self.encoder
        var buffer: [UInt8] = []
        encoder.encode(s, container: name, seq: .max, paused: true, into: &buffer)
        let line = String(decoding: buffer, as: UTF8.self)
        let m = "-1.7976931348623157e+308"
        #expect(line.hasPrefix(#"{"type":"state","container":"\#(String(repeating: "\\u0001", count: 256))","seq":9223372036854775807,"t":-9223372036854775808,"phase":"decelerating","contentOffset":{"x":\#(m),"y":\#(m)},"#))
        #expect(line.hasSuffix(#""header":{"height":\#(m),"progress":\#(m)},"visibleRows":{"first":-9223372036854775808,"last":-9223372036854775808},"stickyRow":{"row":-9223372036854775808,"top":\#(m)},"refreshing":false,"indicators":{"x":{"offset":\#(m),"length":\#(m),"visible":true},"y":{"offset":\#(m),"length":\#(m),"visible":true}},"paused":true}"#))
        s.indicators = nil
        #expect(encoder.encode(s, container: "main", seq: 1).hasSuffix(#""refreshing":false}"#))
    }

    @Test func appendsToAReusedBuffer() {
        var encoder = StateEncoder()
        var buffer: [UInt8] = []
        encoder.encode(state(), container: "main", seq: 1, into: &buffer)
        buffer.append(UInt8(ascii: "\n"))
        let first = buffer
        encoder.encode(state(), container: "main", seq: 2, into: &buffer)
        #expect(Array(buffer[..<first.count]) == first)
        #expect(String(decoding: buffer[first.count...], as: UTF8.self) == encoder.encode(state(), container: "main", seq: 2))
        buffer.removeAll(keepingCapacity: true)
        encoder.encode(state(), container: "main", seq: 1, into: &buffer)
        #expect(buffer + [UInt8(ascii: "\n")] == first)
    }

    @Test func theRememberedOpeningAndSizesFollowEveryChange() {
        // One encoder across changes of container, sizes and insets must print what a fresh
        // encoder prints for each state, never bytes remembered from an earlier one.
        var encoder = StateEncoder()
        var states: [(ScrollState, String)] = []
        var s = state(header: HeaderState(height: 10, progress: 0))
        states.append((s, "main"))
        states.append((s, "side"))
        s.geometry.containerSize.height = 601
        states.append((s, "side"))
        s.geometry.contentInsets.bottom = 7.25
        states.append((s, "side"))
        s.geometry.contentSize.width = -0.0
        states.append((s, "main"))
        s.geometry.contentSize.width = 0
        states.append((s, "main"))
        s.geometry.containerSize.width = .nan
        states.append((s, "main"))
        states.append((s, "main"))
        for (seq, (state, container)) in states.enumerated() {
            var buffer: [UInt8] = []
            encoder.encode(state, container: container, seq: seq, into: &buffer)
            #expect(String(decoding: buffer, as: UTF8.self) == StateEncoder().encode(state, container: container, seq: seq))
        }
        var buffer: [UInt8] = []
        encoder.encode(s, container: "main", seq: 9, into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self).contains(#""containerSize":{"width":0,"height":601},"contentInsets":{"top":0,"leading":0,"bottom":7.25,"trailing":0}"#))
    }

    @Test func everyPhaseHasItsSwiftUIName() {
        for phase in ScrollPhase.allCases {
            var s = state()
            s.phase = phase
            #expect(encoder.encode(s, container: "m", seq: 1).contains(#","phase":"\#(phase.rawValue)","#))
        }
    }

    @Test func outputIsValidJSON() {
        var s = state(header: HeaderState(height: 1e-300, progress: .nan), rows: VisibleRows(first: .max, last: .min))
        s.velocity = Point(x: .infinity, y: -.infinity)
        let line = encoder.encode(s, container: "\u{0}\n", seq: .min)
        #expect(jsonError(line) == nil)
        #expect(line.contains(#""velocity":{"x":1.7976931348623157e+308,"y":-1.7976931348623157e+308}"#))
        #expect(line.contains(#""header":{"height":1e-300,"progress":0}"#))
    }
}
