import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `daemon.realtime_priority`: the event loop and the input thread run under SCHED_RR when the
/// system permits it, at normal priority (said in the log) when not, and leave real time for
/// good when the kernel's RLIMIT_RTTIME watchdog says one ran too long without sleeping.
/// Real daemons, read through /proc and chrt(1). Root: the cases without permission run the
/// daemon as uid 65534.
@Suite("Real-time scheduling", .serialized)
struct RealtimeSchedulingTests {
    static let nobody: UInt32 = 65534

    @Test func theEventLoopAndTheInputThreadRunRoundRobinAtTheConfiguredPriority() throws {
        try #require(getuid() == 0, "needs root (or CAP_SYS_NICE) to be permitted real time")
        let daemon = try DaemonProcess(config: "[daemon]\nrealtime_priority = 7\n")
        defer { daemon.stop() }
        try #require(daemon.waitForLog("input thread runs at real-time priority 7 (SCHED_RR)"), "\(daemon.stderr)")
        #expect(daemon.stderr.contains("event loop runs at real-time priority 7 (SCHED_RR)"))
        let threads = ThreadScheduling.of(daemon.pid)
        let loop = try #require(threads.first { $0.name.hasPrefix("NIO-ELT") }, "\(threads)")
        let input = try #require(threads.first { $0.name == "scrolld-input" }, "\(threads)")
        for thread in [loop, input] {
            #expect(thread.policy == SCHED_RR && thread.priority == 7, "\(thread)")
            // A process the daemon ever starts must not inherit real time.
            #expect(thread.chrt.contains("SCHED_RR|SCHED_RESET_ON_FORK"), "\(thread.chrt)")
        }
        // Every other thread (the main one, blocked until shutdown) stays as it was.
        for thread in threads where thread.tid != loop.tid && thread.tid != input.tid {
            #expect(thread.policy == SCHED_OTHER, "\(thread)")
        }
        // The watchdog: SIGXCPU after 100 ms of CPU without sleeping, SIGKILL after 200 ms.
        let limit = try #require(daemon.probe.limit("Max realtime timeout"))
        #expect(limit.soft == "100000" && limit.hard == "200000", "\(limit)")
        let client = try LineClient(path: daemon.socketPath)
        #expect(client.readJSON()?["containers"] as? [String] == ["main"])
        #expect(client.request(["op": "get", "container": "main"], id: 1)?.phase == "idle")
    }

    @Test func zeroAsksForNothing() throws {
        let daemon = try DaemonProcess(config: "[daemon]\nrealtime_priority = 0\n")
        defer { daemon.stop() }
        try #require(waitUntil(timeout: 30) { ThreadScheduling.of(daemon.pid).contains { $0.name == "scrolld-input" } })
        for thread in ThreadScheduling.of(daemon.pid) {
            #expect(thread.policy == SCHED_OTHER, "\(thread)")
        }
        #expect(!daemon.stderr.contains("priority"), "\(daemon.stderr)")
        #expect(daemon.probe.limit("Max realtime timeout")?.soft == "unlimited")
    }

    @Test func withoutPermissionTheDaemonSaysWhyAndServesAtNormalPriority() throws {
        try #require(getuid() == 0, "needs root to act as another uid")
        let daemon = try DaemonProcess(config: "[daemon]\nallow_uids = [0]\n", launcher: ["/usr/bin/prlimit", "--rtprio=0:0", "--"], user: Self.nobody, realTime: true)
        defer { daemon.stop() }
        let refusal = "runs at normal priority: real-time scheduling not permitted (RLIMIT_RTPRIO 0, no CAP_SYS_NICE); docs/systemd.md says how to permit it"
        try #require(daemon.waitForLog("input thread " + refusal), "\(daemon.stderr)")
        #expect(daemon.stderr.contains("event loop " + refusal), "\(daemon.stderr)")
        for thread in ThreadScheduling.of(daemon.pid) {
            #expect(thread.policy == SCHED_OTHER, "\(thread)")
        }
        let client = try LineClient(path: daemon.socketPath)
        #expect(client.readJSON()?["containers"] as? [String] == ["main"])
        #expect(client.request(["op": "get", "container": "main"], id: 1)?.phase == "idle")
    }

    /// Raising a hard limit takes CAP_SYS_RESOURCE, which some containers (this one among
    /// them) withhold even from root.
    static let mayRaiseLimits = getuid() == 0 && {
        var limit = rlimit()
        let resource = __rlimit_resource_t(14)  // RLIMIT_RTPRIO
        guard getrlimit(resource, &limit) == 0 else { return false }
        if limit.rlim_max >= 3 { return true }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/prlimit")
        process.arguments = ["--rtprio=3:3", "true"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    @Test(.enabled(if: mayRaiseLimits, "needs root with CAP_SYS_RESOURCE to give a user RLIMIT_RTPRIO"))
    func rlimitRtprioGrantsRealTimeUpToItsLimit() throws {
        // What limits.conf's `@input - rtprio 3` gives a user: asked 10, permitted 3.
        let daemon = try DaemonProcess(
            config: "[daemon]\nrealtime_priority = 10\n", launcher: ["/usr/bin/prlimit", "--rtprio=3:3", "--"], user: Self.nobody
        )
        defer { daemon.stop() }
        try #require(daemon.waitForLog("input thread runs at real-time priority 3 (SCHED_RR)"), "\(daemon.stderr)")
        let realTime = ThreadScheduling.of(daemon.pid).filter { $0.policy != SCHED_OTHER }
        #expect(realTime.count == 2 && realTime.allSatisfy { $0.policy == SCHED_RR && $0.priority == 3 }, "\(realTime)")
        #expect(realTime.contains { $0.name.hasPrefix("NIO-ELT") } && realTime.contains { $0.name == "scrolld-input" }, "\(realTime)")
    }

    /// What a system service with `AmbientCapabilities=CAP_SYS_NICE` gets: real time as a user.
    @Test func capSysNiceGrantsRealTimeToAnotherUser() throws {
        try #require(getuid() == 0, "needs root to act as another uid")
        let daemon = try DaemonProcess(
            config: "[daemon]\nrealtime_priority = 12\nallow_uids = [0]\n",
            user: Self.nobody, capabilities: ["sys_nice"]
        )
        defer { daemon.stop() }
        try #require(daemon.waitForLog("input thread runs at real-time priority 12 (SCHED_RR)"), "\(daemon.stderr)")
        let realTime = ThreadScheduling.of(daemon.pid).filter { $0.policy != SCHED_OTHER }
        #expect(realTime.count == 2 && realTime.allSatisfy { $0.policy == SCHED_RR && $0.priority == 12 }, "\(realTime)")
        #expect(try String(contentsOfFile: "/proc/\(daemon.pid)/status", encoding: .utf8).contains("Uid:\t65534"))
    }

    @Test func sigxcpuPutsBothThreadsBackToNormalPriorityTheDaemonServesOnAndAsksAgainLater() throws {
        try #require(getuid() == 0, "needs root (or CAP_SYS_NICE) to be permitted real time")
        let daemon = try DaemonProcess(realTime: true)
        defer { daemon.stop() }
        try #require(daemon.waitForLog("input thread runs at real-time priority 10 (SCHED_RR)"), "\(daemon.stderr)")
        #expect(ThreadScheduling.of(daemon.pid).filter { $0.policy == SCHED_RR }.count == 2)
        // What the kernel sends when a real-time thread passes RLIMIT_RTTIME's soft limit.
        daemon.signal(SIGXCPU)
        #expect(daemon.waitForLog("ms without sleeping (RLIMIT_RTTIME): the daemon runs at normal priority and asks again in 10 s"), "\(daemon.stderr)")
        for thread in ThreadScheduling.of(daemon.pid) {
            #expect(thread.policy == SCHED_OTHER, "\(thread)")
        }
        let client = try LineClient(path: daemon.socketPath)
        #expect(client.readJSON()?["containers"] as? [String] == ["main"])
        #expect(client.request(["op": "get", "container": "main"], id: 1)?.phase == "idle")
        // A burst passes: both threads ask again 10 s later, each logging it a second time.
        let again = waitUntil(timeout: 30) {
            daemon.stderr.components(separatedBy: "input thread runs at real-time priority 10 (SCHED_RR)").count == 3
        }
        #expect(again, "\(daemon.stderr)")
        #expect(daemon.stderr.components(separatedBy: "event loop runs at real-time priority 10 (SCHED_RR)").count == 3, "\(daemon.stderr)")
        #expect(ThreadScheduling.of(daemon.pid).filter { $0.policy == SCHED_RR && $0.priority == 10 }.count == 2)
        #expect(daemon.probe.limit("Max realtime timeout")?.soft == "100000")
        #expect(daemon.stop() == 0)
    }

    @Test func aDaemonStartedAtAHigherRealTimePriorityKeepsIt() throws {
        try #require(getuid() == 0, "needs root (or CAP_SYS_NICE) to be permitted real time")
        let daemon = try DaemonProcess(launcher: ["/usr/bin/chrt", "-f", "30"], realTime: true)
        defer { daemon.stop() }
        try #require(daemon.waitForLog("input thread already runs at real-time priority 30 (SCHED_FIFO): kept"), "\(daemon.stderr)")
        #expect(daemon.stderr.contains("event loop already runs at real-time priority 30 (SCHED_FIFO): kept"))
        for thread in ThreadScheduling.of(daemon.pid) {
            #expect(thread.policy == SCHED_FIFO && thread.priority == 30, "\(thread)")
        }
    }
}
