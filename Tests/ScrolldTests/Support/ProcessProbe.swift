import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What /proc says about a running process: its memory, its descriptors, its limits.
struct ProcessProbe {
    let pid: Int32

    /// A `kB` field of /proc/PID/status (`VmRSS`, `VmHWM`), in KiB.
    func status(_ field: String) -> Int? {
        guard let text = procFile("/proc/\(pid)/status") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(field + ":") {
            return line.dropFirst(field.count + 1).split(whereSeparator: { $0 == " " || $0 == "\t" }).first.flatMap { Int($0) }
        }
        return nil
    }

    /// User plus system CPU time so far, in seconds (/proc/PID/stat fields 14 and 15).
    var cpuSeconds: Double {
        guard let text = procFile("/proc/\(pid)/stat"),
              let close = text.lastIndex(of: ")") else { return -1 }
        let fields = text[text.index(after: close)...].split(separator: " ")
        // After the command: state is field 3, so utime (14) and stime (15) are at 11 and 12.
        guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return -1 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    /// Whether it is stopped (state T in /proc/PID/stat): a SIGSTOP takes effect only when one
    /// of its threads next runs, so a test that stops a daemon waits for this.
    var isStopped: Bool {
        guard let text = procFile("/proc/\(pid)/stat"), let close = text.lastIndex(of: ")") else { return false }
        return text[text.index(after: close)...].split(separator: " ").first == "T"
    }

    var residentKiB: Int { status("VmRSS") ?? -1 }
    var peakResidentKiB: Int { status("VmHWM") ?? -1 }

    /// The targets of /proc/PID/fd (`socket:[…]`, `/dev/null`, `anon_inode:[eventpoll]`, …).
    var descriptors: [String] {
        let directory = "/proc/\(pid)/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.compactMap { try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + $0) }
    }

    var descriptorCount: Int { descriptors.count }

    /// Each descriptor's number and target: two of one kind (`anon_inode:[eventfd]`) told
    /// apart.
    var descriptorTable: [Int: String] {
        let directory = "/proc/\(pid)/fd"
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [:] }
        var table: [Int: String] = [:]
        for name in names {
            if let number = Int(name), let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name) {
                table[number] = target
            }
        }
        return table
    }

    /// How many of its descriptors are not sockets (files, pipes, eventfds, timers, …).
    var descriptorsOtherThanSockets: Int { descriptors.filter { !$0.hasPrefix("socket:") }.count }

    /// The names of its threads (`/proc/PID/task/*/comm`).
    var threadNames: [String] {
        let directory = "/proc/\(pid)/task"
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return tasks.compactMap { procFile(directory + "/" + $0 + "/comm")?.trimmingCharacters(in: .whitespacesAndNewlines) }.sorted()
    }

    /// How many of its descriptors are connections accepted on the Unix socket at `path` (a
    /// daemon's clients): /proc/net/unix lists accepted sockets, connected (St 03), under their
    /// listener's path. (Other connected sockets it may hold, such as the socketpair end
    /// Foundation's Process leaves to a child, are not clients.)
    func clientConnections(on path: String) -> Int {
        let inodes = Set(descriptors.filter { $0.hasPrefix("socket:[") }.map { String($0.dropFirst(8).dropLast()) })
        guard let table = procFile("/proc/net/unix") else { return -1 }
        var connected = 0
        for line in table.split(separator: "\n").dropFirst() {
            // Num RefCount Protocol Flags Type St Inode Path
            let fields = line.split(separator: " ")
            if fields.count >= 8, fields[5] == "03", fields[7] == path, inodes.contains(String(fields[6])) { connected += 1 }
        }
        return connected
    }

    /// Its descriptors besides the connections accepted on `path`: what it holds with no client.
    func descriptorsWithoutClients(on path: String) -> Int { descriptorCount - clientConnections(on: path) }

    /// `descriptorsWithoutClients` less its Unix datagram sockets (Type 0002 in
    /// /proc/net/unix): the one it opens for a moment to send systemd its status. What it holds
    /// for good, in one look, whenever that look is taken.
    func lastingDescriptors(on path: String) -> Int {
        let inodes = Set(descriptors.filter { $0.hasPrefix("socket:[") }.map { String($0.dropFirst(8).dropLast()) })
        guard let table = procFile("/proc/net/unix") else { return -1 }
        var datagram = 0
        for line in table.split(separator: "\n").dropFirst() {
            // Num RefCount Protocol Flags Type St Inode Path
            let fields = line.split(separator: " ")
            if fields.count >= 7, fields[4] == "0002", inodes.contains(String(fields[6])) { datagram += 1 }
        }
        return descriptorsWithoutClients(on: path) - datagram
    }

    /// The soft and hard values of a /proc/PID/limits line, e.g. "Max open files".
    func limit(_ name: String) -> (soft: String, hard: String)? {
        guard let text = procFile("/proc/\(pid)/limits") else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix(name) {
            let values = line.dropFirst(name.count).split(separator: " ")
            guard values.count >= 2 else { return nil }
            return (String(values[0]), String(values[1]))
        }
        return nil
    }
}

/// The whole of a /proc file. (`String(contentsOfFile:)` reads one page of a file whose size
/// stat(2) gives as 0: /proc/net/unix on a machine with a thousand sockets is 150 KB, and the
/// daemon's connections were then missing from what it read.)
func procFile(_ path: String) -> String? {
    guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
    defer { try? handle.close() }
    guard let data = try? handle.readToEnd() else { return nil }
    return String(decoding: data, as: UTF8.self)
}

/// Checks `condition` every 20 ms until it holds or `timeout` seconds pass; whether it held.
/// Tests wait for conditions, with deadlines generous enough for a loaded machine, instead of
/// asserting on how long something took.
@discardableResult
func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while true {
        if condition() { return true }
        if Date() >= deadline { return false }
        usleep(20_000)
    }
}

/// ``waitUntil(timeout:_:)`` for async tests: it sleeps with `Task.sleep`, so it never holds a
/// thread of the cooperative pool (two on this machine) that the client library's and the
/// other tests' tasks need to make the condition come true.
func waitUntil(timeout: Double, _ condition: () -> Bool) async -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int64(timeout * 1000))
    while true {
        if condition() { return true }
        if ContinuousClock.now >= deadline { return false }
        try? await Task.sleep(for: .milliseconds(20))
    }
}

/// Raises this test process' soft RLIMIT_NOFILE to its hard limit (tests that open a thousand
/// sockets); returns the new soft limit.
@discardableResult
func raiseOpenFileLimit() -> UInt64 {
    var limit = rlimit()
    let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    getrlimit(resource, &limit)
    if limit.rlim_cur < limit.rlim_max {
        limit.rlim_cur = limit.rlim_max
        setrlimit(resource, &limit)
        getrlimit(resource, &limit)
    }
    return UInt64(limit.rlim_cur)
}

/// CLOCK_MONOTONIC in microseconds: the clock of the states' `t`.
func monotonicMicroseconds() -> Int64 {
    var now = timespec()
    clock_gettime(CLOCK_MONOTONIC, &now)
    return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1000
}
