// Runs one EngineDriver workload for a fixed number of events, for instruction-level profiles:
//   valgrind --tool=callgrind .build/release/model-loop wheel 100000
// (package-benchmark measures time and allocations; callgrind says where the instructions go).
// `model-loop sizes` prints the sizes of the values copied on the hot path.
import EngineDriver
import ScrollModel
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
let workload = arguments.count > 1 ? arguments[1] : "wheel"
let count = arguments.count > 2 ? Int(arguments[2]) ?? 100_000 : 100_000
if workload == "sizes" {
    print("ScrollContainer", MemoryLayout<ScrollContainer>.size)
    print("ScrollEngine.Slot", MemoryLayout<ScrollEngine.Slot>.size)
    print("ScrollState", MemoryLayout<ScrollState>.size)
    print("Trajectory", MemoryLayout<Trajectory>.size)
    print("DecelerationPath", MemoryLayout<DecelerationPath>.size)
    print("ScrollEvent", MemoryLayout<ScrollEvent>.size)
    print("ScrollPhysics", MemoryLayout<ScrollPhysics>.size)
    exit(0)
}
if workload == "row-edits" {
    // docs/design.md §12: one row inserted in the middle of 100 000, then removed, `count` edits.
    var edits = RowEditDriver(rows: 100_000)
    edits.edit(count: count)
    print(edits.checksum)
    exit(0)
}
let shaping: EngineDriver.Shaping = workload.hasPrefix("shaped") ? .shaped : workload.hasPrefix("detent") ? .detent : .none
let observed = workload.hasPrefix("observed")
let layout: EngineDriver.Layout = workload.hasPrefix("appbars") ? .appbars : workload.hasPrefix("list") || workload.hasPrefix("detent") || observed ? .list : workload.hasPrefix("nested") ? .nested : .plain
// observed-wheel: list-wheel with docs/design.md §13's eight kinds of observation on every state.
var driver = EngineDriver(layout, shaping: shaping, observing: observed ? ObservationSet.eight : [])
switch workload {
case "wheel", "list-wheel", "nested-wheel", "shaped-wheel", "detent-wheel", "observed-wheel", "appbars-wheel": driver.wheel(count: count)
case "finger", "list-finger", "nested-finger", "shaped-finger", "appbars-finger": driver.finger(count: count)
case "frames": driver.frames(count: count)
default:
    print("usage: model-loop wheel|finger|frames|list-wheel|list-finger|nested-wheel|nested-finger|shaped-wheel|shaped-finger|detent-wheel|observed-wheel|appbars-wheel|appbars-finger|row-edits|sizes [count]")
    exit(64)
}
print(driver.checksum, driver.changes)
