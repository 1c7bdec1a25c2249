@testable import ScrollLog
import ScrollModel
import Foundation
import Testing

/// The one-pass reader for lines in `EventLogWriter`'s own form must yield exactly what the
/// general two-pass reader yields, and hand every other form to it.
@Suite struct CanonicalEventLineTests {
    func canonical(_ line: String) -> ScrollEvent? {
        Array(line.utf8).withUnsafeBytes { CanonicalEventLine.parse($0) }
    }

    func general(_ line: String) -> EventLogLine? {
        Array(line.utf8).withUnsafeBytes { try? EventLine.parseInTwoPasses($0, lineNumber: 2) }
    }

    func parsed(_ line: String) -> EventLogLine? {
        Array(line.utf8).withUnsafeBytes { try? EventLine.parse($0, lineNumber: 2) }
    }

    @Test(arguments: ["demo.scrolllog", "real-kernel.scrolllog"])
    func everyLineOfTheExamplesReadsTheSameBothWays(_ name: String) throws {
        let text = try String(contentsOfFile: examplesDirectory + "/" + name, encoding: .utf8)
        var fast = 0
        for line in text.split(separator: "\n").dropFirst().map(String.init) {
            let expected = try #require(general(line))
            if let event = canonical(line) {
                fast += 1
                #expect(EventLogLine.event(event) == expected, "\(line)")
            } else {
                // Only device_added (names and arrays) is left to the general reader.
                #expect(line.contains(#""type":"device_added""#), "\(line)")
            }
        }
        #expect(fast > 10)
    }

    @Test func whatTheWriterWritesReadsBackExactly() {
        let events: [ScrollEvent] = [
            ScrollEvent(time: 1, device: 0, kind: .wheel(v120: AxisValues(y: -120), degrees: AxisValues(y: -15))),
            ScrollEvent(time: 2, device: 7, kind: .wheel(v120: AxisValues(x: 30, y: 0.5), degrees: nil)),
            ScrollEvent(time: 3, device: 1, kind: .finger(AxisValues(x: 0, y: 0))),
            ScrollEvent(time: 1 << 53, device: 1, kind: .finger(AxisValues(x: -1e-300, y: 0.1 + 0.2))),
            ScrollEvent(time: -5, device: -2, kind: .continuous(AxisValues())),
            ScrollEvent(time: 9, device: 3, kind: .continuous(AxisValues(x: 1.7976931348623157e308))),
            ScrollEvent(time: 10, device: 3, kind: .deviceRemoved),
            ScrollEvent(time: 11, device: 2, kind: .holdBegin(fingers: 2)),
            ScrollEvent(time: 12, device: 2, kind: .holdEnd(fingers: 3, cancelled: true)),
            ScrollEvent(time: 13, device: 2, kind: .holdEnd(fingers: 3, cancelled: false)),
        ]
        for event in events {
            let line = EventLogWriter().line(event)
            #expect(canonical(line) == event, "\(line)")
            #expect(general(line) == .event(event), "\(line)")
        }
    }

    @Test(arguments: [
        #"{"t":1 ,"dev":1,"type":"wheel","v120":{"y":120}}"#,
        #"{ "t":1,"dev":1,"type":"wheel","v120":{"y":120}}"#,
        #"{"dev":1,"t":1,"type":"wheel","v120":{"y":120}}"#,
        #"{"t":1,"dev":1,"type":"wheel","v120":{"y":null}}"#,
        #"{"t":1,"dev":1,"type":"wheel","v120":{"y":120},"deg":null}"#,
        #"{"t":1,"dev":1,"type":"wheel","v120":{"y":120},"extra":0}"#,
        #"{"t":1,"dev":1,"type":"wheel","v120":{"y":120},"v120":{"y":60}}"#,
        #"{"t":1,"dev":1,"type":"finger","delta":{"y":1,"x":2}}"#,
        #"{"t":1,"dev":1,"type":"finger","delta":{"y":1}} "#,
        #"{"t":1,"dev":1,"type":"hold_end","fingers":2,"cancelled":1}"#,
        #"{"t":1,"dev":1,"type":"whe\u006cl","v120":{"y":120}}"#,
    ])
    func otherFormsGoToTheGeneralReaderWhichReadsThem(_ line: String) {
        #expect(canonical(line) == nil)
        #expect(parsed(line) == general(line))
    }

    @Test func spaceBeforeANumberIsReadTheSameBothWays() {
        let line = #"{"t": 1,"dev": 1,"type":"wheel","v120":{"y": 120}}"#
        #expect(canonical(line).map(EventLogLine.event) == general(line))
        #expect(general(line) != nil)
    }

    @Test(arguments: [
        #"{"t":1.5,"dev":1,"type":"wheel","v120":{"y":120}}"#,
        #"{"t":1,"dev":99999999999999999999,"type":"wheel","v120":{"y":120}}"#,
        #"{"t":1,"dev":1,"type":"wheel","v120":{"y":1e999}}"#,
        #"{"t":1,"dev":1,"type":"wheel","v120":{"y":120}"#,
        #"{"t":1,"dev":1,"type":"wheel","v120":{"y":01}}"#,
        #"{"t":1,"dev":1,"type":"wheel","v120":{"y":120}}}"#,
    ])
    func badLinesAreLeftToTheGeneralReaderToReport(_ line: String) {
        #expect(canonical(line) == nil)
        #expect(general(line) == nil)
        #expect(parsed(line) == nil)
    }
}
