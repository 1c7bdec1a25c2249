import Foundation

/// An event log of one finger on a touchscreen called "glass": down at `start` at `down`, a
/// motion at each of `points`, the lift at `lift`, and 6 s more before the device goes (so a
/// fling comes to rest before a `--loop` starts the pass over). Coordinates are normalized.
func touchLog(down: Int64, start: (x: Double, y: Double), points: [(t: Int64, x: Double, y: Double)], lift: Int64) throws -> String {
    var lines = [#"{"format":"scrolld-events","version":1,"created":"2026-11-27T00:00:00Z","source":"test"}"#]
    lines.append(#"{"t":0,"dev":1,"type":"device_added","name":"glass","caps":["touch"]}"#)
    lines.append(#"{"t":\#(down),"dev":1,"type":"touch_down","slot":0,"x":\#(start.x),"y":\#(start.y)}"#)
    for p in points {
        lines.append(#"{"t":\#(p.t),"dev":1,"type":"touch_motion","slot":0,"x":\#(p.x),"y":\#(p.y)}"#)
    }
    lines.append(#"{"t":\#(lift),"dev":1,"type":"touch_up","slot":0}"#)
    lines.append(#"{"t":\#(lift + 6_000_000),"dev":1,"type":"device_removed"}"#)
    return try Scrolld.temporaryFile(lines.joined(separator: "\n") + "\n")
}
