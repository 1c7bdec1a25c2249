import ScrollJSON
@testable import ScrollLog
import ScrollModel
import Testing

@Suite struct EventLogReaderTests {
    @Test func readsTheHeader() throws {
        let (log, warnings) = try read(headerLine + "\n")
        #expect(log.header == EventLogHeader(format: "scrolld-events", version: 1, created: "2025-03-01T12:00:00Z", source: "test"))
        #expect(log.events.isEmpty)
        #expect(warnings.isEmpty)
    }

    @Test func toleratesAMinimalHeader() throws {
        let header = try read(#"{"version":1.0,"x":[1,{"y":null}],"created":5,"format":"scrolld-events"}"#).log.header
        #expect(header == EventLogHeader(created: nil, source: nil))
        // A byte order mark before it is harmless.
        #expect(try read("\u{FEFF}" + headerLine).log.header.source == "test")
    }

    @Test func rejectsWhatIsNotAnEventLog() {
        let message = #"line 1: not a scrolld event log (expected header {"format":"scrolld-events","version":1,...})"#
        #expect(readError("") == message)
        #expect(readError("\n" + headerLine) == message)
        #expect(readError("event1  - POINTER_SCROLL_WHEEL +0.000s vert 15.00/120.0* horiz 0.00/0.0 (wheel)\n") == message)
        #expect(readError(#"{"format":"other","version":1}"#) == message)
        #expect(readError(#"{"version":1}"#) == message)
        #expect(readError(#"[{"format":"scrolld-events","version":1}]"#) == message)
        #expect(readError(#"{"t":1,"dev":1,"type":"wheel","v120":{"y":120}}"#) == message)
    }

    @Test func rejectsOtherVersionsAndBadHeaders() {
        #expect(readError(#"{"format":"scrolld-events","version":2}"#) == "line 1: unsupported event log version 2 (this reader supports version 1)")
        #expect(readError(#"{"format":"scrolld-events","version":1.5}"#) == "line 1: unsupported event log version 1.5 (this reader supports version 1)")
        #expect(readError(#"{"format":"scrolld-events"}"#) == #"line 1: header is missing "version""#)
        #expect(readError(#"{"format":"scrolld-events","version":"1"}"#) == #"line 1: header has an invalid "version": expected an integer, got "1""#)
        #expect(readError(#"{"format":"scrolld-events","version":1"#) == "line 1: unexpected end of line at column 39 (expected ',' or '}')")
        // What was found is cut after 40 Unicode scalars: one `a` with ten thousand combining
        // accents is one Character, which the message quoted whole.
        let accents = String(repeating: "\u{301}", count: 10_000)
        #expect(readError(#"{"format":"scrolld-events","version":"a"# + accents + #""}"#)
                == #"line 1: header has an invalid "version": expected an integer, got "a"# + String(repeating: "\u{301}", count: 38) + "…")
    }

    @Test func readsEveryEventType() throws {
        let parsed = try events(
            #"{"t":1000,"dev":3,"type":"device_added","name":"Touchpad","caps":["finger","hold","wheel","continuous"]}"#,
            #"{"t":1815000,"dev":3,"type":"wheel","v120":{"y":120},"deg":{"y":15}}"#,
            #"{"t":1816000,"dev":3,"type":"wheel","v120":{"x":-60.5,"y":0}}"#,
            #"{"t":1817000,"dev":3,"type":"finger","delta":{"x":0.25,"y":-12.75}}"#,
            #"{"t":1818000,"dev":3,"type":"continuous","delta":{"y":3}}"#,
            #"{"t":1819000,"dev":3,"type":"hold_begin","fingers":2}"#,
            #"{"t":1820000,"dev":3,"type":"hold_end","fingers":2,"cancelled":true}"#,
            #"{"t":1821000,"dev":3,"type":"hold_end","fingers":3,"cancelled":false}"#,
            #"{"t":1822000,"dev":3,"type":"device_removed"}"#
        )
        #expect(parsed == [
            ScrollEvent(time: 1000, device: 3, kind: .deviceAdded(name: "Touchpad", capabilities: [.wheel, .finger, .continuous, .hold])),
            ScrollEvent(time: 1_815_000, device: 3, kind: .wheel(v120: AxisValues(y: 120), degrees: AxisValues(y: 15))),
            ScrollEvent(time: 1_816_000, device: 3, kind: .wheel(v120: AxisValues(x: -60.5, y: 0), degrees: nil)),
            ScrollEvent(time: 1_817_000, device: 3, kind: .finger(AxisValues(x: 0.25, y: -12.75))),
            ScrollEvent(time: 1_818_000, device: 3, kind: .continuous(AxisValues(y: 3))),
            ScrollEvent(time: 1_819_000, device: 3, kind: .holdBegin(fingers: 2)),
            ScrollEvent(time: 1_820_000, device: 3, kind: .holdEnd(fingers: 2, cancelled: true)),
            ScrollEvent(time: 1_821_000, device: 3, kind: .holdEnd(fingers: 3, cancelled: false)),
            ScrollEvent(time: 1_822_000, device: 3, kind: .deviceRemoved),
        ])
    }

    @Test func axesArePresentExactlyWhenTheirKeyIs() throws {
        let parsed = try events(
            #"{"t":1,"dev":1,"type":"finger","delta":{"y":0}}"#,
            #"{"t":2,"dev":1,"type":"finger","delta":{"x":0,"y":0}}"#,
            #"{"t":3,"dev":1,"type":"finger","delta":{}}"#,
            #"{"t":4,"dev":1,"type":"continuous","delta":{"x":0}}"#,
            #"{"t":5,"dev":1,"type":"wheel","v120":{"x":120},"deg":{}}"#,
            #"{"t":6,"dev":1,"type":"finger","delta":{"x":null,"y":-0.0,"z":5}}"#
        )
        #expect(parsed.map(\.kind) == [
            .finger(AxisValues(x: nil, y: 0)),
            .finger(AxisValues(x: 0, y: 0)),
            .finger(AxisValues()),
            .continuous(AxisValues(x: 0, y: nil)),
            .wheel(v120: AxisValues(x: 120), degrees: AxisValues()),
            .finger(AxisValues(x: nil, y: 0)),
        ])
        guard case .finger(let stop) = parsed[0].kind else { return }
        #expect(stop.x == nil && stop.y == 0)
    }

    @Test func acceptsIntegralTimesAndRejectsOthers() throws {
        let times = try events(
            #"{"t":1815000.0,"dev":1,"type":"device_removed"}"#,
            #"{"t":1.815e6,"dev":1,"type":"device_removed"}"#,
            #"{"t":9007199254740992,"dev":-1,"type":"device_removed"}"#,
            #"{"t":-9007199254740992,"dev":-1,"type":"device_removed"}"#
        ).map(\.time)
        #expect(times == [1_815_000, 1_815_000, 1 << 53, -(1 << 53)])
        // Beyond ±2^53 µs (285 years) a time is refused: the model's sums of a time and a
        // duration would overflow (a user trial crashed replay with one near 2^63).
        #expect(readError(headerLine + "\n" + #"{"t":9007199254740993,"dev":1,"type":"wheel","v120":{}}"#)
            == #"line 2: event "wheel" has an invalid "t": expected microseconds within ±9007199254740992 (2^53, about 285 years), got 9007199254740993"#)
        #expect(readError(headerLine + "\n" + #"{"t":-9223372036854775808,"dev":1,"type":"wheel","v120":{"y":120}}"#)
            == #"line 2: event "wheel" has an invalid "t": expected microseconds within ±9007199254740992 (2^53, about 285 years), got -9223372036854775808"#)
        #expect(readError(headerLine + "\n" + #"{"t":1.5,"dev":1,"type":"wheel","v120":{}}"#)
            == #"line 2: event "wheel" has an invalid "t": expected an integer, got 1.5"#)
        #expect(readError(headerLine + "\n" + #"{"t":1e19,"dev":1,"type":"wheel","v120":{}}"#)
            == #"line 2: event "wheel" has an invalid "t": expected an integer that fits in 64 bits, got 1e19"#)
        #expect(readError(headerLine + "\n" + #"{"t":"5","dev":1,"type":"wheel","v120":{}}"#)
            == #"line 2: event "wheel" has an invalid "t": expected an integer, got "5""#)
    }

    @Test func namesMissingAndInvalidFields() {
        func error(_ line: String) -> String? { readError(headerLine + "\n\n" + line + "\n") }
        #expect(error(#"{"t":1,"dev":1,"type":"wheel","deg":{"y":15}}"#) == #"line 3: event "wheel" is missing "v120""#)
        #expect(error(#"{"dev":1,"type":"wheel","v120":{}}"#) == #"line 3: event "wheel" is missing "t""#)
        #expect(error(#"{"t":1,"type":"device_removed"}"#) == #"line 3: event "device_removed" is missing "dev""#)
        #expect(error(#"{"t":1,"dev":1}"#) == #"line 3: event is missing "type""#)
        #expect(error(#"{"t":1,"dev":1,"type":7}"#) == #"line 3: event has an invalid "type": expected a string, got 7"#)
        #expect(error(#"{"t":1,"dev":1,"type":"finger","delta":[1,2]}"#)
            == #"line 3: event "finger" has an invalid "delta": expected an object like {"x":…,"y":…}, got [1,2]"#)
        #expect(error(#"{"t":1,"dev":1,"type":"finger","delta":{"y":"1"}}"#)
            == #"line 3: event "finger" has an invalid "delta.y": expected a number, got "1""#)
        #expect(error(#"{"t":1,"dev":1,"type":"wheel","v120":{"x":1e999}}"#)
            == #"line 3: event "wheel" has an invalid "v120.x": expected a number within the range of a double, got 1e999"#)
        #expect(error(#"{"t":1,"dev":1,"type":"hold_end","fingers":2}"#) == #"line 3: event "hold_end" is missing "cancelled""#)
        #expect(error(#"{"t":1,"dev":1,"type":"hold_end","fingers":2,"cancelled":0}"#)
            == #"line 3: event "hold_end" has an invalid "cancelled": expected true or false, got 0"#)
        #expect(error(#"{"t":1,"dev":1,"type":"hold_begin","fingers":2.5}"#)
            == #"line 3: event "hold_begin" has an invalid "fingers": expected an integer, got 2.5"#)
        #expect(error(#"{"t":1,"dev":1,"type":"device_added","caps":[]}"#) == #"line 3: event "device_added" is missing "name""#)
        #expect(error(#"{"t":1,"dev":1,"type":"device_added","name":"m","caps":["wheel",1]}"#)
            == #"line 3: event "device_added" has an invalid "caps": expected an array of strings, got ["wheel",1]"#)
        let long = String(repeating: "x", count: 100)
        #expect(error(#"{"t":1,"dev":1,"type":"wheel","v120":""# + long + #""}"#)
            == #"line 3: event "wheel" has an invalid "v120": expected an object like {"x":…,"y":…}, got ""# + String(repeating: "x", count: 39) + "…")
    }

    @Test func skipsUnknownTypesWithAWarning() throws {
        let (log, warnings) = try read([
            headerLine,
            #"{"t":1,"dev":1,"type":"pinch","scale":1.5}"#,
            #"{"t":2,"dev":1,"type":"wheel","v120":{"y":120}}"#,
            #"{"type":"swipe\n"}"#,
        ].map { $0 + "\n" }.joined())
        #expect(log.events == [ScrollEvent(time: 2, device: 1, kind: .wheel(v120: AxisValues(y: 120), degrees: nil))])
        #expect(warnings == [
            #"line 2: skipped event of unknown type "pinch""#,
            #"line 4: skipped event of unknown type "swipe\u000a""#,
        ])
    }

    @Test func ignoresUnknownKeysBlankLinesAndCarriageReturns() throws {
        let text = headerLine + "\r\n\r\n   \n"
            + #"{"extra":{"deep":[[[{"a":"b"}]]],"n":null},"t":5,"dev":2,"type":"finger","delta":{"y":1,"w":[1]},"more":true}"# + "\r\n"
            + "\t\n"
        let (log, warnings) = try read(text)
        #expect(log.events == [ScrollEvent(time: 5, device: 2, kind: .finger(AxisValues(y: 1)))])
        #expect(warnings.isEmpty)
    }

    @Test func lastDuplicateKeyWins() throws {
        let parsed = try events(#"{"t":1,"t":2,"dev":1,"type":"pinch","type":"finger","delta":{"y":1,"y":2}}"#)
        #expect(parsed == [ScrollEvent(time: 2, device: 1, kind: .finger(AxisValues(y: 2)))])
    }

    @Test func decodesEscapesAndUnicodeInDeviceNames() throws {
        let parsed = try events(
            #"{"t":1,"dev":1,"type":"device_added","name":"Logi \"MX\" \\ caf\u00e9 ✓ \ud83d\ude00\n\/","caps":["wheel","tilt","hold"]}"#
        )
        #expect(parsed == [
            ScrollEvent(time: 1, device: 1, kind: .deviceAdded(name: "Logi \"MX\" \\ caf\u{E9} \u{2713} \u{1F600}\n/", capabilities: [.wheel, .hold])),
        ])
    }

    @Test func reportsAMalformedLineWithItsNumber() {
        let text = [
            headerLine,
            #"{"t":1,"dev":1,"type":"wheel","v120":{"y":120}}"#,
            #"{"t":2,"dev":1,"type":"wheel","v120":{"y":120} "deg":{}}"#,
            #"{"t":3,"dev":1,"type":"wheel","v120":{"y":120}}"#,
        ].map { $0 + "\n" }.joined()
        #expect(readError(text) == "line 3: expected ',' or '}' at column 48")
    }

    /// What a power loss leaves: the last blocks allocated but never written, NUL bytes, after
    /// the last whole line or in the middle of one (`record --help` promises at most the last
    /// line lost; a user trial found such a log refused).
    @Test func acceptsTrailingNulBytesLikeATruncatedLastLine() throws {
        let complete = #"{"t":1,"dev":1,"type":"wheel","v120":{"y":120}}"#
        let nuls = String(repeating: "\u{0}", count: 4096)
        let (log, warnings) = try read(headerLine + "\n" + complete + "\n" + nuls)
        #expect(log.events == [ScrollEvent(time: 1, device: 1, kind: .wheel(v120: AxisValues(y: 120), degrees: nil))])
        #expect(warnings == ["line 3: ignored 4096 NUL bytes at the end of the log, and what they cut off (a power loss leaves them)"])
        let cut = try read(headerLine + "\n" + complete + "\n" + "{\"t\":2,\"dev\":1," + String(repeating: "\u{0}", count: 7))
        #expect(cut.log.events.count == 1)
        #expect(cut.warnings == ["line 3: ignored 7 NUL bytes at the end of the log, and what they cut off (a power loss leaves them)"])
        // Anywhere but at the very end (a newline after them) they are an error.
        #expect(readError(headerLine + "\n" + nuls + "\n" + complete + "\n") != nil)
    }

    @Test func acceptsATruncatedLastLine() throws {
        let complete = #"{"t":1,"dev":1,"type":"wheel","v120":{"y":120}}"#
        let (log, warnings) = try read(headerLine + "\n" + complete + "\n" + #"{"t":2,"dev":1,"type":"wh"#)
        #expect(log.events == [ScrollEvent(time: 1, device: 1, kind: .wheel(v120: AxisValues(y: 120), degrees: nil))])
        #expect(warnings == [#"line 3: ignored truncated last line (unexpected end of line at column 26 (expected '"'))"#])
        // Wherever the cut falls.
        for length in 1..<complete.utf8.count {
            let cut = String(decoding: complete.utf8.prefix(length), as: UTF8.self)
            let result = try read(headerLine + "\n" + complete + "\n" + cut)
            #expect(result.log.events.count == 1)
            #expect(result.warnings.count == 1)
        }
        // A complete last line without a newline is an ordinary line.
        #expect(try read(headerLine + "\n" + complete).log.events.count == 1)
    }

    @Test func rejectsTruncationAnywhereElse() {
        let cut = #"{"t":2,"dev":1,"type":"wh"#
        // In the middle of the log.
        #expect(readError(headerLine + "\n" + cut + "\n" + #"{"t":3,"dev":1,"type":"device_removed"}"# + "\n")
            == #"line 2: unexpected end of line at column 26 (expected '"')"#)
        // At the end but with its newline: the line was complete, and it is wrong.
        #expect(readError(headerLine + "\n" + cut + "\n") == #"line 2: unexpected end of line at column 26 (expected '"')"#)
        // A last line that is malformed, not cut short.
        #expect(readError(headerLine + "\n" + #"{"t":2,,"#) == "line 2: expected a key at column 8")
        // A last line that is valid JSON but not a valid event.
        #expect(readError(headerLine + "\n" + #"{"t":2,"dev":1,"type":"wheel"}"#) == #"line 2: event "wheel" is missing "v120""#)
    }

    @Test func rejectsDeepNestingWithoutCrashing() {
        let deep = String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)
        #expect(readError(headerLine + "\n" + #"{"t":1,"x":"# + deep + "}\n") == "line 2: nesting deeper than 64 levels at column 75")
    }

    @Test func parsesLinesOneByOne() throws {
        var parser = EventLogParser()
        #expect(try parser.parse(line: Array(headerLine.utf8), lineNumber: 1) == .header(EventLogHeader(created: "2025-03-01T12:00:00Z", source: "test")))
        #expect(try parser.parse(line: "".utf8, lineNumber: 2) == .skip)
        #expect(try parser.parse(line: #"{"t":7,"dev":2,"type":"hold_begin","fingers":3}"#.utf8, lineNumber: 3)
            == .event(ScrollEvent(time: 7, device: 2, kind: .holdBegin(fingers: 3))))
        let cut = #"{"t":8,"dev":2,"#
        #expect(try parser.parse(line: cut.utf8, lineNumber: 4, isLast: true)
            == .warning(EventLogWarning(line: 4, kind: .truncatedLastLine(JSONError(.unexpectedEnd(expected: "a key"), column: 16)))))
        #expect(throws: EventLogError(line: 4, problem: .syntax(JSONError(.unexpectedEnd(expected: "a key"), column: 16)))) {
            try parser.parse(line: cut.utf8, lineNumber: 4)
        }
        // Non-contiguous sequences work too.
        #expect(try parser.parse(line: AnySequence(#"{"t":9,"dev":2,"type":"device_removed"}"#.utf8), lineNumber: 5)
            == .event(ScrollEvent(time: 9, device: 2, kind: .deviceRemoved)))
    }

    @Test func readsEventByEvent() throws {
        var reader = EventLogReader(text: headerLine + "\n" + #"{"t":1,"dev":1,"type":"x"}"# + "\n" + #"{"t":2,"dev":1,"type":"device_removed"}"#)
        #expect(try reader.readHeader().source == "test")
        var warnings: [EventLogWarning] = []
        #expect(try reader.next { warnings.append($0) } == ScrollEvent(time: 2, device: 1, kind: .deviceRemoved))
        #expect(warnings == [EventLogWarning(line: 2, kind: .unknownEventType("x"))])
        #expect(try reader.next() == nil)
        #expect(reader.lineNumber == 3)
    }

    @Test func survivesMutatedInput() {
        // A cheap stand-in for the fuzzer: mangled lines must fail cleanly, never crash or hang.
        let lines = [
            #"{"t":1815000,"dev":3,"type":"wheel","v120":{"x":-120,"y":120},"deg":{"y":15.5}}"#,
            #"{"t":1,"dev":1,"type":"device_added","name":"caf\u00e9 \ud83d\ude00","caps":["wheel","hold"]}"#,
            #"{"t":2,"dev":1,"type":"hold_end","fingers":2,"cancelled":false,"x":[[{"a":null}]]}"#,
        ].map { Array($0.utf8) }
        let alphabet = Array(#"{}[]:,"\-+.eE0123456789 tfnu\/"#.utf8) + [0x00, 0x1F, 0x80, 0xC3, 0xED, 0xF4, 0xFF]
        var random = SplitMix(state: 7)
        var parsed = 0
        for _ in 0..<20_000 {
            var line = lines[Int(random.next() % UInt64(lines.count))]
            for _ in 0...(random.next() % 4) {
                let i = Int(random.next() % UInt64(line.count))
                switch random.next() % 3 {
                case 0: line[i] = alphabet[Int(random.next() % UInt64(alphabet.count))]
                case 1: line.remove(at: i)
                default: line.insert(alphabet[Int(random.next() % UInt64(alphabet.count))], at: i)
                }
                if line.isEmpty { line = [0x7B] }
            }
            var parser = EventLogParser()
            _ = try? parser.parse(line: Array(headerLine.utf8), lineNumber: 1)
            if (try? parser.parse(line: line, lineNumber: 2, isLast: random.next() % 2 == 0)) != nil { parsed += 1 }
        }
        #expect(parsed > 0)
    }
}

@Suite struct LargeInputTests {
    @Test func readsHugeLinesInLinearTime() throws {
        // Quadratic behaviour would turn each of these into minutes.
        let manyElements = "[" + Array(repeating: "1.5e3", count: 200_000).joined(separator: ",") + "]"
        let manyKeys = (0..<50_000).map { #""k\#($0)":{"t":\#($0)}"# }.joined(separator: ",")
        let longName = String(repeating: #"\u00e9\n"#, count: 100_000)
        let longNumber = "1" + String(repeating: "0", count: 200_000) + "e-200000"
        let line = #"{"x":\#(manyElements),\#(manyKeys),"t":1,"dev":1,"type":"device_added","name":"\#(longName)","caps":[],"n":\#(longNumber)}"#
        let parsed = try events(line)
        #expect(parsed.count == 1)
        guard case .deviceAdded(let name, _)? = parsed.first?.kind else { return }
        #expect(name == String(repeating: "\u{E9}\n", count: 100_000))
    }
}
