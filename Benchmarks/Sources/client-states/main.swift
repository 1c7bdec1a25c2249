// The Swift client's cost per state, for the same line as libscrolld/bench/bench_states.c and
// python_states.py (docs/clients.md, "C"): what ScrollClient does with each state line it reads —
// ScrollProtocol's reply decoder — in-process, without the socket (a lower bound), in CPU time
// per state.
//
//   client-states [N]   (default 200 000)
import ScrollModel
import ScrollProtocol
#if canImport(Glibc)
import Glibc
#endif

let line = Array(#"{"type":"state","container":"list","seq":42,"t":1815000,"phase":"interacting","contentOffset":{"x":0,"y":123.5},"velocity":{"x":0,"y":812.25},"contentSize":{"width":400,"height":4600},"containerSize":{"width":400,"height":600},"contentInsets":{"top":0,"leading":0,"bottom":0,"trailing":0},"header":{"height":76.5,"progress":0.8821},"visibleRows":{"first":0,"last":9}}"#.utf8)
let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 200_000 : 200_000

func cpuNanoseconds() -> Int64 {
    var time = timespec()
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &time)
    return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
}

// Summed so that the work cannot be left out.
var checksum = 0.0
let start = cpuNanoseconds()
for _ in 0..<count {
    guard case .state(let state)? = try? ReplyDecoder.decode(line) else { fatalError("the line did not decode") }
    checksum += state.state.contentOffset.y + (state.paused ? 1 : 0)
}
let used = cpuNanoseconds() - start
precondition(checksum == 123.5 * Double(count))
print("swift-client per-state: \(used / Int64(count)) ns (\(count) states; ReplyDecoder, CPU time, no socket)")
