import Foundation

/// The threads of this process with a name, from /proc: a watcher's thread is there from its
/// `start` to the return of its `stop`, which joins it.
enum ThreadCensus {
    static func count(named name: String) -> Int {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.filter { task in
            let comm = try? String(contentsOfFile: "/proc/self/task/\(task)/comm", encoding: .utf8)
            return comm?.trimmingCharacters(in: .whitespacesAndNewlines) == name
        }.count
    }
}
