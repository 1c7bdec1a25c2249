import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// One thread's scheduling, from /proc/PID/task/TID/stat (policy and rt_priority, fields 41
/// and 40) and `chrt -p` (which also shows SCHED_RESET_ON_FORK).
struct ThreadScheduling: CustomStringConvertible {
    let tid: Int32
    let name: String
    let policy: Int32
    let priority: Int32

    var chrt: String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/chrt")
        process.arguments = ["-p", String(tid)]
        let out = Pipe()
        process.standardOutput = out
        guard (try? process.run()) != nil else { return "" }
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return text
    }

    var description: String { "\(name) (\(tid)): policy \(policy), priority \(priority)" }

    static func of(_ pid: Int32) -> [ThreadScheduling] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return tasks.compactMap { task in
            guard let tid = Int32(task),
                  let stat = try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")"),
                  let open = stat.firstIndex(of: "(") else { return nil }
            // After the name: state is field 3, so rt_priority (40) and policy (41) are at 37 and 38.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 38, let priority = Int32(fields[37]), let policy = Int32(fields[38]) else { return nil }
            return ThreadScheduling(tid: tid, name: String(stat[stat.index(after: open)..<close]), policy: policy, priority: priority)
        }.sorted { $0.tid < $1.tid }
    }
}
