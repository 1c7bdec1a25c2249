import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// CPU affinity for a benchmark that keeps the program it measures and the load it puts on it
/// apart: the daemon on a CPU of its own, the test's clients and readers on the others.
///
/// Real-time priority alone does not keep a busy load off the daemon's CPU: since Linux 6.12 a
/// deadline server gives normal threads up to 50 ms of every second on each CPU where they
/// wait, ahead of SCHED_FIFO ones (the older `sched_rt_runtime_us` throttling did the same),
/// and a thousand clients on two CPUs always wait. docs/performance-live.md, finding 8, has
/// the scheduler trace that showed it. Set through util-linux's `taskset`: Glibc's module does
/// not bring `sched_setaffinity` into Swift.
enum CPUAffinity {
    /// The CPUs this process may run on now (`Cpus_allowed_list` of /proc/self/status).
    static var allowed: [Int] {
        let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Cpus_allowed_list:") }) else { return [] }
        return line.dropFirst("Cpus_allowed_list:".count).split(separator: ",").flatMap { range -> [Int] in
            let bounds = range.split(separator: "-").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
            guard let first = bounds.first else { return [] }
            return Array(first...(bounds.last ?? first))
        }
    }

    /// Every thread of process `pid` on `cpus`; threads made later inherit it from the thread
    /// that makes them. nil, or why not.
    static func pin(process pid: Int32, to cpus: [Int]) -> String? {
        let list = cpus.map(String.init).joined(separator: ",")
        do {
            let result = try Scrolld.runTool("/usr/bin/taskset", ["--all-tasks", "--pid", "--cpu-list", list, "\(pid)"])
            return result.status == 0 ? nil : "taskset --cpu-list \(list) \(pid): \(result.stderr)"
        } catch {
            return "taskset: \(error)"
        }
    }
}
