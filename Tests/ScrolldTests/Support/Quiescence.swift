import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Whether a process is asleep for good: nothing inside it can wake it, only something from
/// outside (a connection, a signal, input). Told from /proc in one look, not by watching for a
/// while, so it holds or not however busy the machine is (docs/decisions.md, "Tests and time"):
///
/// - every thread is asleep (state S) in a system call that waits without a timeout:
///   `epoll_wait`/`poll` with -1, `ppoll`/`epoll_pwait2`/`futex` with no timespec, a `read`;
///   not `nanosleep`, not a finite poll;
/// - every timerfd it holds is disarmed and has not fired unread (`it_value: (0, 0)`,
///   `ticks: 0` in /proc/PID/fdinfo): NIO's event loop keeps its scheduled tasks in one, so an
///   armed one is a task due (a frame, a timeout, a periodic job);
/// - it has no POSIX timer (/proc/PID/timers);
/// - and the threads were looked at again after all that, and none had run in between (same
///   voluntary context switches, same system call): the look at the timers was taken while
///   they all slept.
///
/// A loop that polls (a periodic task, a poll with a timeout, a sleep in a loop) is never in
/// that state: between its wake-ups its timer is armed or its thread sleeps with a timeout.
extension ProcessProbe {
    struct ThreadLook: Equatable, CustomStringConvertible {
        var tid: String
        var name: String
        var state: String
        var syscall: String
        var voluntarySwitches: Int

        var description: String { "\(name) (\(tid)): state \(state), syscall \(syscall), \(voluntarySwitches) voluntary switches" }
    }

    /// Each thread's state, current system call and voluntary context switches.
    var threadLooks: [ThreadLook] {
        let tasks = "/proc/\(pid)/task"
        let ids = ((try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []).sorted()
        return ids.map { id in
            let status = procFile("\(tasks)/\(id)/status") ?? ""
            var look = ThreadLook(tid: id, name: "?", state: "?", syscall: (procFile("\(tasks)/\(id)/syscall") ?? "?")
                .trimmingCharacters(in: .whitespacesAndNewlines), voluntarySwitches: -1)
            for line in status.split(separator: "\n") {
                let value = line.split(separator: "\t", maxSplits: 1).last.map(String.init) ?? ""
                if line.hasPrefix("Name:") { look.name = value }
                if line.hasPrefix("State:") { look.state = String(value.prefix(1)) }
                if line.hasPrefix("voluntary_ctxt_switches:") { look.voluntarySwitches = Int(value) ?? -1 }
            }
            return look
        }
    }

    /// The descriptors of its timerfds, with their /proc/PID/fdinfo.
    var timerDescriptors: [(fd: String, info: String)] {
        let directory = "/proc/\(pid)/fd"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
        return names.compactMap { name in
            guard (try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + name)) == "anon_inode:[timerfd]" else { return nil }
            return (name, procFile("/proc/\(pid)/fdinfo/\(name)") ?? "")
        }
    }

    /// Nil when the process is asleep for good; otherwise what may still wake it.
    /// `timers: false` leaves out the timers: every thread asleep with no timeout of its own,
    /// whatever a timerfd may do later.
    func whatMayWakeIt(timers: Bool = true) -> String? {
        let first = threadLooks
        guard !first.isEmpty else { return "no threads (has it exited?)" }
        for thread in first {
            if thread.state != "S" { return "\(thread): not asleep" }
            if let reason = Self.waitsWithATimeout(thread.syscall) { return "\(thread): \(reason)" }
        }
        for (fd, info) in timers ? timerDescriptors : [] {
            let lines = info.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            guard lines.contains("it_value: (0, 0)"), lines.contains("ticks: 0") else {
                return "timerfd \(fd) is armed or has fired: \(lines.filter { $0.hasPrefix("it_") || $0.hasPrefix("ticks") })"
            }
        }
        if let timers = procFile("/proc/\(pid)/timers"), !timers.isEmpty { return "POSIX timers: \(timers)" }
        let second = threadLooks
        guard second == first else { return "a thread ran while it was looked at: \(first) then \(second)" }
        return nil
    }

    /// Whether the process has stopped reading the connection whose other end is `fd`: bytes
    /// sent on it wait unread (SIOCOUTQ) while every thread of the process sleeps, and none ran
    /// from before that look to after it. NIO's event loop waits on epoll, level-triggered: a
    /// connection it still read would have woken it as soon as those bytes arrived. (Timers
    /// may be armed: a stuck-client check is, once a socket is full.)
    func stoppedReading(_ fd: Int32) -> Bool {
        let before = threadLooks
        guard whatMayWakeIt(timers: false) == nil else { return false }
        var unread: Int32 = 0
        guard ioctl(fd, UInt(TIOCOUTQ), &unread) == 0, unread > 0 else { return false }
        guard whatMayWakeIt(timers: false) == nil else { return false }
        return threadLooks == before
    }

    /// Why a thread in this system call (a /proc/PID/task/TID/syscall line: number, six
    /// arguments, stack and instruction pointers) could wake by itself, or nil if it waits
    /// only for something from outside.
    static func waitsWithATimeout(_ line: String) -> String? {
        let fields = line.split(separator: " ")
        guard fields.count >= 7, let number = Int(fields[0]) else { return "not in a system call (\(line))" }
        let arguments = fields[1...6].map { UInt64($0.dropFirst(2), radix: 16) ?? 0 }
        /// An `int` timeout (poll, epoll_wait): negative is for ever.
        func forever(int argument: Int) -> Bool { Int32(truncatingIfNeeded: arguments[argument]) < 0 }
        /// A timeout passed by pointer (ppoll, epoll_pwait2, futex): NULL is for ever.
        func forever(pointer argument: Int) -> Bool { arguments[argument] == 0 }
        let waitsForever: Bool
        switch number {
        case Syscall.read, Syscall.recvfrom, Syscall.recvmsg, Syscall.accept, Syscall.accept4, Syscall.rt_sigsuspend, Syscall.wait4:
            waitsForever = true
        case Syscall.epoll_pwait: waitsForever = forever(int: 3)
        case Syscall.epoll_pwait2: waitsForever = forever(pointer: 3)
        case Syscall.ppoll: waitsForever = forever(pointer: 2)
        case Syscall.rt_sigtimedwait: waitsForever = forever(pointer: 2)
        case Syscall.pselect6: waitsForever = forever(pointer: 4)
        case Syscall.futex:
            // FUTEX_WAIT (0) and FUTEX_WAIT_BITSET (9), whatever the PRIVATE and CLOCK_REALTIME flags.
            let operation = arguments[1] & 0x7f
            guard operation == 0 || operation == 9 else { return "in futex operation \(operation)" }
            waitsForever = forever(pointer: 3)
        default:
            #if arch(x86_64)
            switch number {
            case Syscall.poll: waitsForever = forever(int: 2)
            case Syscall.epoll_wait: waitsForever = forever(int: 3)
            case Syscall.pause: waitsForever = true
            default: return "in system call \(number), which is not known to wait without a timeout"
            }
            #else
            return "in system call \(number), which is not known to wait without a timeout"
            #endif
        }
        return waitsForever ? nil : "in system call \(number) with a timeout"
    }

    /// System call numbers (Linux's tables for x86_64 and aarch64).
    enum Syscall {
        #if arch(x86_64)
        static let read = 0, poll = 7, pause = 34, accept = 43, recvfrom = 45, recvmsg = 47, wait4 = 61
        static let rt_sigtimedwait = 128, rt_sigsuspend = 130, futex = 202, epoll_wait = 232
        static let pselect6 = 270, ppoll = 271, epoll_pwait = 281, accept4 = 288, epoll_pwait2 = 441
        #elseif arch(arm64)
        static let epoll_pwait = 22, pselect6 = 72, ppoll = 73, read = 63, futex = 98, rt_sigsuspend = 133
        static let rt_sigtimedwait = 137, accept = 202, recvfrom = 207, recvmsg = 212, accept4 = 242, wait4 = 260, epoll_pwait2 = 441
        #endif
    }
}
