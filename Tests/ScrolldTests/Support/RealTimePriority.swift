import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// SCHED_FIFO for the threads whose timing a test measures. On a machine shared with builds
/// (or with the other tests of `make test`) a normal thread can wait tens of milliseconds for a
/// CPU; a real-time thread runs as soon as it is runnable, so what is measured is the thread's
/// own work. The kernel still keeps 5 % of each second for normal threads
/// (`sched_rt_runtime_us`), so a real-time thread that needs more than 95 % of a CPU is stopped
/// for the rest of that second: a program near that limit shows gaps of about 50 ms.
enum RealTimePriority {
    /// Every thread of process `pid` (threads it makes later inherit it); nil, or why not.
    static func apply(toProcess pid: Int32, priority: Int32) -> String? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        guard !tasks.isEmpty else { return "no threads under /proc/\(pid)/task" }
        for task in tasks {
            if let failure = apply(toThread: Int32(task) ?? -1, priority: priority) { return failure }
        }
        return nil
    }

    /// The calling thread; nil, or why not.
    static func applyToCurrentThread(priority: Int32) -> String? {
        apply(toThread: 0, priority: priority)
    }

    private static func apply(toThread tid: Int32, priority: Int32) -> String? {
        var parameter = sched_param(sched_priority: priority)
        guard sched_setscheduler(tid, SCHED_FIFO, &parameter) == 0 else {
            return "sched_setscheduler(\(tid), SCHED_FIFO, \(priority)): \(String(cString: strerror(errno)))"
        }
        return nil
    }
}
