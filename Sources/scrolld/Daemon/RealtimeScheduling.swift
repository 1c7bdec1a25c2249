import Logging
import CScrolldShim
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// Real-time scheduling for the two threads every state's latency runs through: the event loop
/// (model, encoding, fan-out, frames) and the input thread (libinput).
///
/// On a busy machine a woken SCHED_OTHER thread may wait for the running one's slice; a
/// SCHED_RR thread runs at once. That is the difference between a p99 under and over one
/// millisecond with 100 subscribers on a shared 2-core machine (docs/performance-live.md), and
/// why PipeWire, JACK and compositors ask for it too. The daemon asks only when the system
/// permits it (root, CAP_SYS_NICE, or RLIMIT_RTPRIO, e.g. limits.conf `@input - rtprio 20`),
/// and runs at normal priority otherwise. docs/systemd.md has how to permit it.
///
/// A real-time thread that never sleeps would starve the desktop, so RLIMIT_RTTIME bounds the
/// CPU time one may take without blocking: at the soft limit the kernel sends SIGXCPU, whose
/// handler puts both threads back to SCHED_OTHER, long before the hard limit's SIGKILL; they
/// ask again `retryDelay` later.
/// The daemon never spins (it sleeps in epoll and poll), so this only ever fires if something
/// is badly wrong, such as far more subscribers than the machine can serve.
enum RealtimeScheduling {
    /// The threads that ask, each with its slot for the SIGXCPU handler.
    enum Role {
        case eventLoop
        case input

        var label: String {
            switch self {
            case .eventLoop: "event loop"
            case .input: "input thread"
            }
        }
    }

    enum Outcome: Equatable {
        /// SCHED_RR at this priority (lower than asked when RLIMIT_RTPRIO allowed only that).
        case granted(priority: Int32)
        /// Already real-time at this priority or higher (e.g. started under `chrt`): left alone.
        case inherited(policy: Int32, priority: Int32)
        case refused(String)
    }

    /// RLIMIT_RTTIME (µs): SIGXCPU at the soft limit, SIGKILL at the hard one (the unit's
    /// `LimitRTTIME=100ms:200ms`; PipeWire and RealtimeKit use 200 ms too).
    static let cpuLimit = (soft: rlim_t(100_000), hard: rlim_t(200_000))

    /// Linux ABI values glibc declares only under _GNU_SOURCE, which Swift's Glibc module lacks.
    static let resetOnFork: Int32 = 0x4000_0000  // SCHED_RESET_ON_FORK
    static let rttimeResource = __rlimit_resource_t(UInt32(CScrolldRLimitRealtimeCPU()))
    static let rtprioResource = __rlimit_resource_t(UInt32(CScrolldRLimitRealtimePriority()))

    /// Kernel thread ids of the threads that became real-time (0: none), read by the SIGXCPU
    /// handler: lock-free atomics are all a signal handler may touch.
    private static let eventLoopThread = Atomic<Int32>(0)
    private static let inputThread = Atomic<Int32>(0)
    /// Set by the SIGXCPU handler until `allowAgain()`: a thread that asks meanwhile leaves again.
    private static let left = Atomic<Bool>(false)

    /// Puts the calling thread under SCHED_RR at `priority` (1–99) if permitted.
    ///
    /// SCHED_RESET_ON_FORK: a process the daemon might ever start must not inherit it.
    static func enterCurrentThread(as role: Role, priority: Int32) -> Outcome {
        let current = sched_getscheduler(0) & ~resetOnFork
        var parameters = sched_param()
        sched_getparam(0, &parameters)
        if current == SCHED_FIFO || current == SCHED_RR, parameters.sched_priority >= priority {
            return .inherited(policy: current, priority: parameters.sched_priority)
        }
        if let problem = limitRealtimeCPU() { return .refused(problem) }
        var granted = priority
        var result = setRoundRobin(granted)
        if result == EPERM, let allowed = rtprioLimit(), allowed > 0, allowed < granted {
            // RLIMIT_RTPRIO permits real time, only lower: take what is permitted.
            granted = allowed
            result = setRoundRobin(granted)
        }
        switch result {
        case 0:
            let tid = currentThreadID()
            switch role {
            case .eventLoop: eventLoopThread.store(tid, ordering: .sequentiallyConsistent)
            case .input: inputThread.store(tid, ordering: .sequentiallyConsistent)
            }
            // A SIGXCPU handled before the store above could not see this thread.
            if left.load(ordering: .sequentiallyConsistent) {
                dropToNormalPriority()
                return .refused("dropped again: RLIMIT_RTTIME's SIGXCPU came while it asked")
            }
            return .granted(priority: granted)
        case EPERM:
            guard let allowed = rtprioLimit(), allowed > 0 else {
                return .refused("not permitted (RLIMIT_RTPRIO 0, no CAP_SYS_NICE)")
            }
            // The limit permits it, so a system call filter refused (systemd's RestrictRealtime=).
            return .refused("refused although RLIMIT_RTPRIO is \(allowed > 99 ? "unlimited" : String(allowed)) (a system call filter forbids it)")
        default:
            return .refused(String(cString: strerror(result)))
        }
    }

    /// How long after a SIGXCPU the threads ask again: long enough for a burst to pass, short
    /// enough that one burst does not cost the rest of the session its latency.
    static let retryDelay: Int64 = 10  // seconds

    /// Lets the threads ask again after a SIGXCPU (each through `enterCurrentThread`, which
    /// also puts the soft limit back: the kernel raises it by a second per SIGXCPU, above the
    /// hard limit, where the next overrun would be a SIGKILL).
    static func allowAgain() {
        left.store(false, ordering: .sequentiallyConsistent)
    }

    /// Called from the SIGXCPU handler: every real-time thread back to SCHED_OTHER. Only
    /// atomics and system calls, nothing that allocates: async-signal-safe.
    static func dropToNormalPriority() {
        left.store(true, ordering: .sequentiallyConsistent)
        dropToNormal(eventLoopThread.exchange(0, ordering: .sequentiallyConsistent))
        dropToNormal(inputThread.exchange(0, ordering: .sequentiallyConsistent))
    }

    /// SCHED_OTHER, keeping SCHED_RESET_ON_FORK: without CAP_SYS_NICE the kernel refuses to
    /// clear that flag (EPERM), which would leave the thread real-time.
    private static func dropToNormal(_ tid: Int32) {
        guard tid != 0 else { return }
        var normal = sched_param()
        _ = sched_setscheduler(tid, SCHED_OTHER | resetOnFork, &normal)
    }

    /// `enterCurrentThread`, and the outcome logged (once per thread and request, at info).
    static func enterCurrentThread(as role: Role, priority: Int32, logging logger: Logger) {
        logger.info("\(describe(enterCurrentThread(as: role, priority: priority), of: role))")
    }

    /// The log line for `outcome` of `role`'s request.
    static func describe(_ outcome: Outcome, of role: Role) -> String {
        switch outcome {
        case .granted(let priority):
            return "\(role.label) runs at real-time priority \(priority) (SCHED_RR)"
        case .inherited(let policy, let priority):
            return "\(role.label) already runs at real-time priority \(priority) (\(policy == SCHED_FIFO ? "SCHED_FIFO" : "SCHED_RR")): kept"
        case .refused(let reason):
            return "\(role.label) runs at normal priority: real-time scheduling \(reason); docs/systemd.md says how to permit it"
        }
    }

    private static func setRoundRobin(_ priority: Int32) -> Int32 {
        var parameters = sched_param(sched_priority: priority)
        return sched_setscheduler(0, SCHED_RR | resetOnFork, &parameters) == 0 ? 0 : errno
    }

    /// Lowers RLIMIT_RTTIME to `cpuLimit` (never raises it: a tighter limit from the system
    /// stays). Nil when the limit is in place.
    private static func limitRealtimeCPU() -> String? {
        var limit = rlimit()
        guard getrlimit(rttimeResource, &limit) == 0 else { return "cannot read RLIMIT_RTTIME: \(String(cString: strerror(errno)))" }
        let hard = min(limit.rlim_max, cpuLimit.hard)
        let soft = min(limit.rlim_cur, cpuLimit.soft, hard / 2)
        guard limit.rlim_max != hard || limit.rlim_cur != soft else { return nil }
        limit.rlim_max = hard
        limit.rlim_cur = soft
        guard setrlimit(rttimeResource, &limit) == 0 else { return "cannot set RLIMIT_RTTIME: \(String(cString: strerror(errno)))" }
        return nil
    }

    private static func rtprioLimit() -> Int32? {
        var limit = rlimit()
        guard getrlimit(rtprioResource, &limit) == 0 else { return nil }
        return Int32(clamping: limit.rlim_cur)  // RLIM_INFINITY (all ones) clamps to Int32.max
    }

    /// gettid(2), through the shim (Swift's Glibc module does not declare it).
    static func currentThreadID() -> Int32 {
        CScrolldThreadID()
    }
}
