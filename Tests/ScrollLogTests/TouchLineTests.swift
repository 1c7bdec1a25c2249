@testable import ScrollLog
import ScrollModel
import Testing

/// docs/design.md §25's event log lines: `touch_down`, `touch_motion` (slot, x, y normalized),
/// `touch_up`, `touch_cancel` (slot), and the `touch` capability.
@Suite struct TouchLineTests {
    let writer = EventLogWriter()

    static let cases: [(ScrollEvent.Kind, String)] = [
        (.touchDown(slot: 0, at: Point(x: 0.25, y: 0.125)), #"{"t":1815000,"dev":3,"type":"touch_down","slot":0,"x":0.25,"y":0.125}"#),
        (.touchMotion(slot: 2, at: Point(x: 0.1, y: 1)), #"{"t":1815000,"dev":3,"type":"touch_motion","slot":2,"x":0.1,"y":1}"#),
        (.touchUp(slot: 0), #"{"t":1815000,"dev":3,"type":"touch_up","slot":0}"#),
        (.touchCancel(slot: 9), #"{"t":1815000,"dev":3,"type":"touch_cancel","slot":9}"#),
        (.deviceAdded(name: "Panel", capabilities: [.touch]), #"{"t":1815000,"dev":3,"type":"device_added","name":"Panel","caps":["touch"]}"#),
    ]

    @Test func writesTouchLinesInContractOrder() {
        for (kind, line) in Self.cases {
            #expect(writer.line(ScrollEvent(time: 1_815_000, device: 3, kind: kind)) == line)
        }
    }

    @Test func readsWhatItWritesAndAnyKeyOrder() throws {
        let lines = Self.cases.map(\.1) + [#"{"y":0.5, "x":0.75, "slot":1, "type":"touch_motion", "dev":4, "t":7}"#]
        let (log, warnings) = try read(([headerLine] + lines).joined(separator: "\n") + "\n")
        #expect(warnings.isEmpty)
        #expect(log.events.map(\.kind) == Self.cases.map(\.0) + [.touchMotion(slot: 1, at: Point(x: 0.75, y: 0.5))])
    }

    @Test func namesBadTouchFields() {
        let bad = [
            (#"{"t":1,"dev":1,"type":"touch_down","x":0.5,"y":0.5}"#, "slot"),
            (#"{"t":1,"dev":1,"type":"touch_down","slot":-1,"x":0.5,"y":0.5}"#, "slot"),
            (#"{"t":1,"dev":1,"type":"touch_motion","slot":0,"y":0.5}"#, "x"),
            (#"{"t":1,"dev":1,"type":"touch_motion","slot":0,"x":0.5,"y":1e300}"#, "y"),
            (#"{"t":1,"dev":1,"type":"touch_down","slot":0,"x":"left","y":0.5}"#, "x"),
            (#"{"t":1,"dev":1,"type":"touch_up"}"#, "slot"),
        ]
        for (line, key) in bad {
            #expect(throws: EventLogError.self) { _ = try read(headerLine + "\n" + line + "\n") }
            do {
                _ = try read(headerLine + "\n" + line + "\n")
            } catch {
                #expect(error.description.contains(key), "\(error.description) does not name \(key)")
            }
        }
    }
}
