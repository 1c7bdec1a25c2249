@testable import ScrollLog
import ScrollModel
import Testing

@Suite struct EventLogWriterTests {
    let writer = EventLogWriter()

    @Test func writesTheHeader() {
        let header = EventLogHeader(created: "2025-03-01T12:00:00Z", source: "scrolld record")
        #expect(writer.headerLine(header) == #"{"format":"scrolld-events","version":1,"created":"2025-03-01T12:00:00Z","source":"scrolld record"}"#)
        #expect(writer.headerLine(EventLogHeader()) == #"{"format":"scrolld-events","version":1}"#)
    }

    @Test func writesEachEventInContractOrder() {
        let cases: [(ScrollEvent.Kind, String)] = [
            (.deviceAdded(name: "Touchpad", capabilities: [.hold, .finger, .wheel]),
             #"{"t":1815000,"dev":3,"type":"device_added","name":"Touchpad","caps":["wheel","finger","hold"]}"#),
            (.deviceAdded(name: "", capabilities: []), #"{"t":1815000,"dev":3,"type":"device_added","name":"","caps":[]}"#),
            (.deviceRemoved, #"{"t":1815000,"dev":3,"type":"device_removed"}"#),
            (.wheel(v120: AxisValues(y: 120), degrees: AxisValues(y: 15)),
             #"{"t":1815000,"dev":3,"type":"wheel","v120":{"y":120},"deg":{"y":15}}"#),
            (.wheel(v120: AxisValues(x: -60, y: 0.5), degrees: nil), #"{"t":1815000,"dev":3,"type":"wheel","v120":{"x":-60,"y":0.5}}"#),
            (.finger(AxisValues(y: 0)), #"{"t":1815000,"dev":3,"type":"finger","delta":{"y":0}}"#),
            (.finger(AxisValues(x: 0.1, y: -12.75)), #"{"t":1815000,"dev":3,"type":"finger","delta":{"x":0.1,"y":-12.75}}"#),
            (.continuous(AxisValues()), #"{"t":1815000,"dev":3,"type":"continuous","delta":{}}"#),
            (.holdBegin(fingers: 2), #"{"t":1815000,"dev":3,"type":"hold_begin","fingers":2}"#),
            (.holdEnd(fingers: 3, cancelled: true), #"{"t":1815000,"dev":3,"type":"hold_end","fingers":3,"cancelled":true}"#),
        ]
        for (kind, line) in cases {
            #expect(writer.line(ScrollEvent(time: 1_815_000, device: 3, kind: kind)) == line)
        }
    }

    @Test func appendsLinesWithNewlines() {
        var buffer = Array("x".utf8)
        writer.appendHeaderLine(EventLogHeader(), to: &buffer)
        writer.appendLine(ScrollEvent(time: -5, device: 0, kind: .deviceRemoved), to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self)
            == "x" + #"{"format":"scrolld-events","version":1}"# + "\n" + #"{"t":-5,"dev":0,"type":"device_removed"}"# + "\n")
    }

    @Test func escapesStrings() {
        let event = ScrollEvent(time: 0, device: 1, kind: .deviceAdded(name: "a\"b\\c\n\u{1}\u{1F}\u{7F} é😀/", capabilities: [.wheel]))
        #expect(writer.line(event) == #"{"t":0,"dev":1,"type":"device_added","name":"a\"b\\c\u000a\u0001\u001f"# + "\u{7F} é😀/" + #"","caps":["wheel"]}"#)
    }

    @Test func clampsValuesJSONCannotHold() {
        let event = ScrollEvent(time: 0, device: 1, kind: .finger(AxisValues(x: .nan, y: -.infinity)))
        #expect(writer.line(event) == #"{"t":0,"dev":1,"type":"finger","delta":{"x":0,"y":-1.7976931348623157e+308}}"#)
    }

    @Test func roundTripsThroughTheReader() throws {
        var random = SplitMix(state: 2024)
        func awkward() -> Double {
            // The smallest subnormal, and 2^53 (above it not every integer is a Double).
            let fixed: [Double] = [0, -0.0, 0.1, -812.25, 1e-300, .leastNonzeroMagnitude, 1e16, 123_456.789, 9_007_199_254_740_992, -.greatestFiniteMagnitude]
            if random.next() % 3 == 0 { return fixed[Int(random.next() % UInt64(fixed.count))] }
            let value = Double(bitPattern: random.next())
            return value.isFinite ? value : 1
        }
        func axes() -> AxisValues {
            AxisValues(x: random.next() % 2 == 0 ? awkward() : nil, y: random.next() % 2 == 0 ? awkward() : nil)
        }
        var events: [ScrollEvent] = [
            ScrollEvent(time: -(1 << 53), device: .min, kind: .deviceAdded(name: "ünïcödé \u{0} \"q\" \\ \u{10FFFF}", capabilities: [.wheel, .finger, .continuous, .hold])),
            ScrollEvent(time: 1 << 53, device: .max, kind: .deviceRemoved),
        ]
        for i in 0..<2_000 {
            let kind: ScrollEvent.Kind
            switch i % 6 {
            case 0: kind = .wheel(v120: axes(), degrees: random.next() % 2 == 0 ? axes() : nil)
            case 1: kind = .finger(axes())
            case 2: kind = .continuous(axes())
            case 3: kind = .holdBegin(fingers: Int(random.next() % 5))
            case 4: kind = .holdEnd(fingers: Int(random.next() % 5), cancelled: random.next() % 2 == 0)
            default: kind = .deviceAdded(name: "dev \(i)", capabilities: DeviceCapabilities(rawValue: UInt8(random.next() % 16)))
            }
            events.append(ScrollEvent(time: Int64(bitPattern: random.next()) >> 10, device: Int(random.next() % 100), kind: kind))  // within ±2^53
        }
        let log = EventLog(header: EventLogHeader(created: "2025-03-01T12:00:00+01:00", source: "round trip"), events: events)
        var warnings: [EventLogWarning] = []
        let reread = try EventLog(parsing: log.serialized()) { warnings.append($0) }
        #expect(reread == log)
        #expect(warnings.isEmpty)
    }
}
