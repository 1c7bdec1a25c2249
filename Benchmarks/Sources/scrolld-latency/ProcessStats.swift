#if canImport(Glibc)
import Glibc
#endif

/// What /proc says about a running process, summed over all its threads.
struct ProcessStats {
    let pid: pid_t

    /// Voluntary context switches of every thread: each one is a sleep, so a process that never
    /// wakes up keeps this sum still.
    func voluntarySwitches() -> Int {
        taskDirectories().reduce(0) { sum, task in
            sum + (Self.field("voluntary_ctxt_switches", in: "\(task)/status") ?? 0)
        }
    }

    /// CPU time of every thread in ns (schedstat's first field: time on a CPU).
    func cpuNanoseconds() -> Int64 {
        taskDirectories().reduce(0) { sum, task in
            guard let text = Self.read("\(task)/schedstat"), let first = text.split(separator: " ").first,
                  let ns = Int64(first) else { return sum }
            return sum + ns
        }
    }

    /// VmRSS and VmHWM in KiB.
    func memory() -> (rss: Int, hwm: Int) {
        (Self.field("VmRSS", in: "/proc/\(pid)/status") ?? -1, Self.field("VmHWM", in: "/proc/\(pid)/status") ?? -1)
    }

    func threadCount() -> Int { taskDirectories().count }

    private func taskDirectories() -> [String] {
        guard let dir = opendir("/proc/\(pid)/task") else { return [] }
        defer { closedir(dir) }
        var result: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name.first?.isNumber == true { result.append("/proc/\(pid)/task/\(name)") }
        }
        return result
    }

    static func read(_ path: String) -> String? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 4096) }
            if n <= 0 { break }
            bytes += chunk[0..<n]
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The number after `key:` in a /proc status file.
    static func field(_ key: String, in path: String) -> Int? {
        guard let text = read(path) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(key + ":") {
            return Int(line.dropFirst(key.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? "")
        }
        return nil
    }
}
