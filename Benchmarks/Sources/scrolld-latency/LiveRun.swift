#if canImport(Glibc)
import Glibc
#endif

/// One measured run: N subscribers on a server that is publishing input (a `scrolld run`, or
/// the floor server), from the first event until everything has come to rest, then (for the
/// daemon) 10 s of idle.
struct LiveRun {
    struct Result {
        var subscribers = 0
        /// Arrival − t of every input state at every subscriber.
        var input = LatencyStats()
        /// Per input state, the arrival at the last subscriber to get it.
        var inputLast = LatencyStats()
        /// Arrival − t of every deadline state (frames and timers; t is the scheduled instant).
        var frames = LatencyStats()
        /// The frames in a fling or animation (phase decelerating or animating).
        var motionFrames = LatencyStats()
        var inputStates = 0
        var deadlineStates = 0
        var expectedInputs = 0
        /// Distinct states seen by anyone, and the span of their seqs (what the server published).
        var statesSeen = 0
        var published = 0
        var samples = 0
        /// Consecutive frame states exactly one frame period apart, and those further apart.
        var framesOnGrid = 0
        var framesSkipping = 0
        var longestFrameGap: Int64 = 0
        var cpuNanoseconds: Int64 = 0
        var idleSwitches: Int?
        var idleCPU: Int64?
        var idleStates = 0
        var rss = 0
        var hwm = 0
        var threads = 0
        var lineBytes = 0
        var closedConnections = 0
        var clockAnomalies = 0

        var cpuPerPublishedState: Double { published > 0 ? Double(cpuNanoseconds) / Double(published) : 0 }
        var deliveredFraction: Double {
            let expected = Double(statesSeen) * Double(subscribers)
            return expected > 0 ? Double(samples) / expected : 0
        }
    }

    let server: ChildProcess
    let socket: String
    let subscribers: Int
    let frameRate: Double
    /// Measure this many seconds of idle after the motion has settled.
    let idleSeconds: Double?
    /// Whether the server's motion ends in an idle state (the daemon's does; the floor server
    /// only stops writing).
    var settles = true

    /// Connects, then runs `drive` (which returns once the last input event is due) and waits
    /// for rest. `inputTimes` then names the input states' times given every state seen.
    func measure(drive: () throws -> Void, inputTimes: ([UInt32: SubscriberSet.StateInfo]) throws -> Set<Int64>, expectedInputs: Int) throws -> Result {
        let set = try SubscriberSet(path: socket, count: subscribers)
        let subscribedAt = Clock.microseconds()
        let stats = server.stats
        let cpuStart = stats.cpuNanoseconds()
        set.start()
        try drive()
        try waitForRest(set)
        var result = Result()
        result.cpuNanoseconds = stats.cpuNanoseconds() - cpuStart
        if let idleSeconds {
            let switches = stats.voluntarySwitches(), cpu = stats.cpuNanoseconds(), arrivals = set.arrivals.load(ordering: .relaxed)
            Clock.sleep(seconds: idleSeconds)
            result.idleSwitches = stats.voluntarySwitches() - switches
            result.idleCPU = stats.cpuNanoseconds() - cpu
            result.idleStates = set.arrivals.load(ordering: .relaxed) - arrivals
        }
        (result.rss, result.hwm) = stats.memory()
        result.threads = stats.threadCount()
        let received = set.stop()
        let states = set.states
        result.closedConnections = set.closedConnections
        result.clockAnomalies = set.clockAnomalies
        for (seq, t, phase, early) in set.earlyStates {
            print("scrolld-latency: state seq \(seq) t \(t) (\(phase)) arrived \(early) ns before its t", to: &standardError)
        }
        set.disconnect()
        guard server.isRunning else { throw HarnessError("\(server.name) exited during the run:\n\(server.logTail())") }

        guard let firstSeq = states.keys.min(), let lastSeq = states.keys.max() else {
            throw HarnessError("no state reached the subscribers; server log:\n\(server.logTail())")
        }
        guard states[firstSeq]!.t > subscribedAt else {
            throw HarnessError("the first state came before every subscriber was connected: make the lead-in longer")
        }
        let inputs = try inputTimes(states)
        result.subscribers = subscribers
        result.expectedInputs = expectedInputs
        result.statesSeen = states.count
        result.published = Int(lastSeq - firstSeq) + 1
        result.lineBytes = states.values.reduce(0) { $0 + $1.bytes } / max(1, states.count)

        for info in states.values {
            if inputs.contains(info.t) {
                result.inputStates += 1
                result.inputLast.record(nanoseconds: UInt64(max(0, info.lastArrival - info.t * 1000)))
            } else {
                result.deadlineStates += 1
            }
        }
        for subscriber in received {
            result.samples += subscriber.seqs.count
            for (seq, latency) in zip(subscriber.seqs, subscriber.latencies) {
                let info = states[seq]!
                if inputs.contains(info.t) {
                    result.input.record(nanoseconds: UInt64(latency))
                } else {
                    result.frames.record(nanoseconds: UInt64(latency))
                    if info.phase.isMotion { result.motionFrames.record(nanoseconds: UInt64(latency)) }
                }
            }
        }
        // Frames: consecutive published states that are both frames of one motion.
        let period = 1e6 / frameRate
        var previous: SubscriberSet.StateInfo?
        for seq in firstSeq...lastSeq {
            guard let info = states[seq] else { previous = nil; continue }
            defer { previous = info }
            guard let before = previous, !inputs.contains(info.t), !inputs.contains(before.t),
                  info.phase != .idle, before.phase != .idle else { continue }
            let gap = info.t - before.t
            if abs(Double(gap) - period) <= 1 { result.framesOnGrid += 1 } else if Double(gap) > period { result.framesSkipping += 1 }
            result.longestFrameGap = max(result.longestFrameGap, gap)
        }
        return result
    }

    /// Waits until the last state is idle and nothing has arrived for a second.
    private func waitForRest(_ set: SubscriberSet, timeout: Double = 60) throws {
        let deadline = Clock.nanoseconds() + Int64(timeout * 1e9)
        while Clock.nanoseconds() < deadline {
            Clock.sleep(seconds: 0.1)
            guard server.isRunning else { throw HarnessError("\(server.name) exited during the run:\n\(server.logTail())") }
            let quiet = Clock.nanoseconds() - set.lastArrival.load(ordering: .relaxed) > 1_000_000_000
            let idle = set.lastPhase.load(ordering: .relaxed) == StateLine.Phase.idle.rawValue
            if quiet && (idle || !settles) { return }
        }
        throw HarnessError("the motion did not come to rest within \(timeout) s of the last event")
    }
}
