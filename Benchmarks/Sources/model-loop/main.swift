// Runs one EngineDriver workload for a fixed number of events, for instruction-level profiles:
//   valgrind --tool=callgrind .build/release/model-loop wheel 100000
// (package-benchmark measures time and allocations; callgrind says where the instructions go).
import EngineDriver
#if canImport(Glibc)
import Glibc
#endif

let arguments = CommandLine.arguments
let workload = arguments.count > 1 ? arguments[1] : "wheel"
let count = arguments.count > 2 ? Int(arguments[2]) ?? 100_000 : 100_000
var driver = EngineDriver(workload.hasPrefix("list") ? .list : .plain)
switch workload {
case "wheel", "list-wheel": driver.wheel(count: count)
case "finger", "list-finger": driver.finger(count: count)
case "frames": driver.frames(count: count)
default:
    print("usage: model-loop wheel|finger|frames|list-wheel|list-finger [count]")
    exit(64)
}
print(driver.checksum)
import ScrollModel
if workload == "wheel" && count == 1 {
    print("ScrollState", MemoryLayout<ScrollState>.size, "Trajectory", MemoryLayout<Trajectory>.size, "Container", MemoryLayout<ScrollContainer>.size, "Slot", MemoryLayout<ScrollEngine.Slot>.size, "Update", MemoryLayout<ScrollEngine.Update>.size, "Event", MemoryLayout<ScrollEvent>.size, "Physics", MemoryLayout<ScrollPhysics>.size, "Config", MemoryLayout<ContainerConfiguration>.size, "SpringCurve", MemoryLayout<SpringCurve>.size, "DecelPath", MemoryLayout<DecelerationPath>.size)
}
