import Foundation

extension ProcessProbe {
    /// Every thread's name (`comm`), CPU time and time spent runnable but waiting for a CPU,
    /// in seconds (/proc/PID/task/TID/schedstat: on-CPU ns, run-queue ns, time slices).
    var threadSchedule: [(name: String, cpu: Double, runQueue: Double)] {
        let tasks = "/proc/\(pid)/task"
        guard let ids = try? FileManager.default.contentsOfDirectory(atPath: tasks) else { return [] }
        return ids.compactMap { id in
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(id)/schedstat", encoding: .utf8) else { return nil }
            let fields = stat.split(separator: " ").compactMap { Double($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            guard fields.count >= 2 else { return nil }
            let name = (try? String(contentsOfFile: "\(tasks)/\(id)/comm", encoding: .utf8))?.trimmingCharacters(in: .whitespacesAndNewlines) ?? id
            return (name, fields[0] / 1e9, fields[1] / 1e9)
        }
    }

    /// The sums over all threads: (CPU, run-queue wait), in seconds.
    var schedule: (cpu: Double, runQueue: Double) {
        threadSchedule.reduce((0, 0)) { ($0.0 + $1.cpu, $0.1 + $1.runQueue) }
    }
}
