import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// docs/security.md, "Overload": a thousand clients at once, a fifth of them never reading and a
/// tenth connecting and disconnecting in a loop, while a replay feeds 1000 events a second. See
/// docs/security.md ("Overload") for what is promised and what "within one frame" means.
///
/// What is judged is behaviour, exactly: order, the final state everywhere, every input,
/// every state for a subscriber that never fell behind, the rate limits, stuck clients dropped
/// and no one else, descriptors and memory. How late the states were ("within one frame") is a
/// figure, printed on every run and judged by `make bench` (Benchmarks/scripts/overload.sh),
/// which runs this test against the release build under SCHED_FIFO several times and records
/// how many runs met the bound: timing is the machine's as much as the daemon's.
@Suite("scrolld under overload", .serialized)
struct OverloadTests {
    /// The 700 healthy subscribers, as UI clients and tools would ask: one state per display
    /// frame at 120 or 60 Hz, and a few that take every state (`rate` nil).
    /// `OVERLOAD_HEALTHY="100:0,300:120,300:60"` (count:rate, 0 for none) measures another mix.
    static let healthyClasses: [(count: Int, rate: Double?)] = {
        guard let text = ProcessInfo.processInfo.environment["OVERLOAD_HEALTHY"], !text.isEmpty else {
            return [(100, nil), (300, 120), (300, 60)]
        }
        return text.split(separator: ",").map { item in
            let parts = item.split(separator: ":").map { Double($0) ?? 0 }
            return (Int(parts[0]), parts.count > 1 && parts[1] > 0 ? parts[1] : nil)
        }
    }()
    static let stuck = 200  // subscribers that never read
    static let churning = 100  // connect and disconnect in a loop
    static let frameRate = 120.0
    /// One frame at `frame_rate` 120, in µs (8333.3, rounded up).
    static let frameMicros = Int64((1e6 / frameRate).rounded(.up))
    static let readerThreads = 2
    /// Set by `make bench`: the daemon, the CPU sampler and the readers then run under
    /// SCHED_FIFO (RealTimePriority), so that the latency figure is the daemon's own work.
    /// Not in `make test`, where real-time threads would take the CPU from whatever else runs.
    static let benchmark = ProcessInfo.processInfo.environment["SCROLLD_OVERLOAD_BENCH"] == "1"
    /// Also for `make bench` (`OVERLOAD_DAEMON_CPU`, a number or `last`): the daemon's threads
    /// on this CPU, the test's on the others (CPUAffinity), so that the load does not share the
    /// daemon's CPU.
    static let daemonCPU: Int? = {
        guard benchmark, let value = ProcessInfo.processInfo.environment["SCROLLD_OVERLOAD_DAEMON_CPU"], !value.isEmpty else { return nil }
        return value == "last" ? CPUAffinity.allowed.last : Int(value)
    }()
    /// Also for `make bench` (`OVERLOAD_DEADLINE`, runtime/period in ms, e.g. `9.5/10`): the
    /// daemon's event loop under that SCHED_DEADLINE reservation instead of SCHED_FIFO, which
    /// Linux 6.12+'s fair server preempts on CPUs shared with the test's load
    /// (DeadlineReservation).
    static let deadlineSetting: String? = {
        guard benchmark, let value = ProcessInfo.processInfo.environment["SCROLLD_OVERLOAD_DEADLINE"], !value.isEmpty else { return nil }
        return value
    }()
    static let deadline = deadlineSetting.flatMap(DeadlineReservation.init(milliseconds:))
    /// SCHED_FIFO priorities: the daemon above the test's threads, so that none of them delays it.
    static let daemonPriority: Int32 = 20, samplerPriority: Int32 = 15, readerPriority: Int32 = 10
    /// `run --stuck-client-timeout`: the clients that never read are dropped this long after
    /// their socket filled (in the first pass), while the test still holds them.
    static let stuckTimeout = 10

    /// One pass of the looped log: a touchpad drag of 2000 finger events 1 ms apart (1 px
    /// each, 1000 px/s) from 3 s in, then the fingers lift: a fling, to rest in about half a
    /// second with `deceleration_rate = 0.99`. The replay source then pauses 1 s and starts over.
    /// The 4 s between passes are the PassGate's time to open and close the measured container
    /// (a pass it misses is tried again).
    static let dragEvents = 2000
    static let leadIn = 3_000_000
    static var passLog: String {
        var lines = [#"{"format":"scrolld-events","version":1,"created":"2026-11-22T00:00:00Z","source":"overload test"}"#]
        lines.append(#"{"t":0,"dev":1,"type":"device_added","name":"touchpad","caps":["finger"]}"#)
        for i in 0..<dragEvents { lines.append(#"{"t":\#(leadIn + i * 1000),"dev":1,"type":"finger","delta":{"y":1}}"#) }
        lines.append(#"{"t":\#(leadIn + dragEvents * 1000),"dev":1,"type":"finger","delta":{"y":0}}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `main`, the measured container, starts bound to a device that does not exist (no input
    /// reaches it); `clock`, its twin, gets every pass and tells the test where the replay is.
    /// The test puts the daemon under SCHED_FIFO itself (RealTimePriority), so the daemon does
    /// not ask for real time of its own: that would bring RLIMIT_RTTIME, and a thousand clients
    /// connecting at once keep the loop from sleeping for over 100 ms, whose SIGXCPU takes the
    /// daemon out of real time by design (docs/systemd.md) and behind the FIFO readers.
    static let config = """
        [daemon]
        realtime_priority = 0
        [physics]
        deceleration_rate = 0.99
        [containers.main]
        contentSize = "800x100000000"
        devices = ["(gate closed)"]
        [containers.clock]
        contentSize = "800x100000000"
        """

    @Test func aThousandClientsWhileAReplayFeedsAThousandEventsPerSecond() throws {
        let healthyCount = Self.healthyClasses.reduce(0) { $0 + $1.count }
        let clients = healthyCount + Self.stuck + Self.churning
        let limit = raiseOpenFileLimit()
        try #require(limit >= UInt64(clients + 500), "this test needs \(clients + 500) descriptors; the hard RLIMIT_NOFILE is \(limit)")
        let log = try Scrolld.temporaryFile(Self.passLog)
        // What one pass computes, from the same engine without any client: how far it moves
        // the content, and every state's time.
        let replay = try Scrolld.run(["replay", log, "--content-size", "800x100000000", "--set", "physics.deceleration_rate=0.99"])
        try #require(replay.status == 0 && replay.states.last?.phase == "idle", "\(replay.stderr)")
        // The pass ends where it comes to rest: the indicators' hide, the linger after it
        // (docs/design.md §22), is not part of it (live, the next pass may come first).
        var passStates = replay.states
        while passStates.count >= 2, passStates[passStates.count - 2].phase == "idle" { passStates.removeLast() }
        let passDistance = try #require(passStates.last?.y)
        let replayTimes = passStates.compactMap { $0.t }
        try #require(replayTimes.count == passStates.count && replayTimes == replayTimes.sorted())

        // Started with a soft limit of 256 descriptors: the daemon must raise it itself.
        let daemon = try DaemonProcess(
            config: Self.config, arguments: ["--loop", "--stuck-client-timeout", "\(Self.stuckTimeout)"], replay: log, softFileLimit: 256
        )
        let probe = daemon.probe
        let limits = try #require(probe.limit("Max open files"))
        #expect(limits.soft == limits.hard && limits.soft != "256", "soft \(limits.soft), hard \(limits.hard)")
        #expect(daemon.stderr.contains("open file limit raised from 256 to \(limits.hard)"), "\(daemon.stderr)")
        // What the daemon holds besides client connections (the harness' probe connection may
        // not be closed on its side yet) and the datagram socket it opens for a moment to send
        // systemd its status.
        let baselineFDs = probe.lastingDescriptors(on: daemon.socketPath)
        let baselineDescriptors = probe.descriptorTable
        let baselineThreads = probe.threadNames
        let baselineSockets = baselineFDs - probe.descriptorsOtherThanSockets
        let baselineKiB = probe.residentKiB
        let started = Date()
        // For `make bench`: the daemon and the readers run as soon as they are runnable,
        // whatever else the machine does, so the timing measured is theirs (RealTimePriority).
        let priorityFailure = Self.benchmark
            ? RealTimePriority.apply(toProcess: probe.pid, priority: Self.daemonPriority)
            : "not asked for outside `make bench`"
        var placement = ""
        if let setting = Self.deadlineSetting, Self.deadline == nil {
            Issue.record("SCROLLD_OVERLOAD_DEADLINE must be RUNTIME/PERIOD in ms, e.g. 9.5/10 (got \(setting))")
        }
        if priorityFailure == nil, let deadline = Self.deadline {
            if let failure = deadline.apply(toThreadsOf: probe.pid, named: "NIO-ELT-") {
                Issue.record("\(failure)")
            } else {
                placement += ", the event loop under \(deadline)"
            }
        }
        if let cpu = Self.daemonCPU {
            let others = CPUAffinity.allowed.filter { $0 != cpu }
            try #require(!others.isEmpty, "no CPU left for the test besides \(cpu)")
            if let failure = CPUAffinity.pin(process: probe.pid, to: [cpu]) ?? CPUAffinity.pin(process: getpid(), to: others) {
                Issue.record("\(failure)")
            } else {
                placement += ", the daemon alone on CPU \(cpu)"
            }
        }
        let sampler = CPUSampler(pid: probe.pid, realTimePriority: priorityFailure == nil ? Self.samplerPriority : nil)
        sampler.start()

        let gate = try PassGate(path: daemon.socketPath, gated: "main", twin: "clock")
        // The healthy subscribers, then their readers, then the stuck ones and the churners.
        var healthy: [StreamCheck] = []
        for (count, rate) in Self.healthyClasses {
            for _ in 0..<count {
                let fd = try RawSocket.connectRetrying(daemon.socketPath, nonblocking: true)
                let rateField = rate.map { ",\"rate\":\($0)" } ?? ""
                #expect(RawSocket.send(fd, #"{"op":"subscribe","container":"main","id":\#(healthy.count + 1)\#(rateField)}"# + "\n") > 0)
                healthy.append(StreamCheck(fd: fd, rate: rate))
            }
        }
        let readers = SubscriberReaders(healthy, threads: Self.readerThreads, realTimePriority: priorityFailure == nil ? Self.readerPriority : nil)
        readers.start()
        var stuck: [Int32] = []
        for _ in 0..<Self.stuck {
            let fd = try RawSocket.connectRetrying(daemon.socketPath, nonblocking: true)
            RawSocket.send(fd, #"{"op":"subscribe","container":"main"}"# + "\n")
            stuck.append(fd)
        }
        let churner = Churner(path: daemon.socketPath, slots: Self.churning)
        churner.start()
        defer {
            for fd in stuck { close(fd) }
        }

        // Everyone connected and subscribed: exactly one pass is then let through to `main`.
        let allSubscribed = waitUntil(timeout: 120) { readers.all { $0.subscribedSeq != nil } }
        try #require(allSubscribed, "not every healthy client got its subscription's state: \(daemon.stderr.suffix(2000))")
        let allAccepted = waitUntil(timeout: 120) { probe.descriptorCount >= baselineFDs + healthy.count + stuck.count }
        try #require(allAccepted, "the daemon holds \(probe.descriptorCount) descriptors, \(baselineFDs) + \(healthy.count + stuck.count) expected")
        let connectedKiB = probe.residentKiB
        let connectedFDs = probe.descriptorCount
        // A pass is let through cleanly when the gate opened before its first event and closed
        // after its last: `main` then has exactly the twin's first and last state times. On a
        // machine too busy to react within the 4 s between passes, the next pass is tried.
        var measured: PassGate.Pass?
        var attempts = 0
        while measured == nil, attempts < 10 {
            attempts += 1
            let pass = try #require(gate.letOnePassThrough(open: ["op": "configure", "container": "main", "devices": [String]()]))
            let delivered = waitUntil(timeout: 120) { readers.all { $0.lastSeq >= pass.finalSeq } }
            try #require(delivered, "some healthy subscribers never got past seq \(pass.finalSeq)")
            let streams = readers.streams
            func t(of seq: Int) -> Int64? {
                for stream in streams { if let k = stream.seqs.firstIndex(of: Int32(seq)) { return stream.times[k] } }
                return nil
            }
            let finalIsIdle = streams.contains { $0.idleLines[pass.finalSeq] != nil }
            if pass.before.phase == "idle", t(of: pass.seqBefore + 1) == pass.firstT, t(of: pass.finalSeq) == pass.lastT, finalIsIdle { measured = pass }
        }
        let pass = try #require(measured, "no pass was let through cleanly in \(attempts) attempts")
        let range = (pass.seqBefore + 1)...pass.finalSeq
        let endKiB = probe.residentKiB
        let peakKiB = probe.peakResidentKiB
        #expect(waitUntil(timeout: 30) { churner.cycles > Self.churning }, "\(churner.cycles) connections churned")
        churner.stop()
        readers.stop()
        sampler.stop()
        let elapsed = Date().timeIntervalSince(started)
        let streams = readers.streams

        // Every healthy subscriber: never a state older than one it already has, and the pass'
        // final state, byte for byte the same line everywhere.
        let finalLine = try #require(streams.lazy.compactMap { $0.idleLines[pass.finalSeq] }.first, "no subscriber has a line for seq \(pass.finalSeq)")
        var disordered = 0, withoutFinal = 0, differentFinal = 0
        for (i, stream) in streams.enumerated() {
            if !stream.disorder.isEmpty {
                disordered += 1
                if disordered <= 3 { Issue.record("client \(i): \(stream.disorder.prefix(5))") }
            }
            switch stream.idleLines[pass.finalSeq] {
            case nil: withoutFinal += 1
            case let line? where line != finalLine: differentFinal += 1
            default: break
            }
        }
        #expect(disordered == 0, "\(disordered) subscribers received a state older than one before it")
        #expect(withoutFinal == 0, "\(withoutFinal) subscribers never received the pass' final state (seq \(pass.finalSeq))")
        #expect(differentFinal == 0, "\(differentFinal) subscribers received a different line for seq \(pass.finalSeq)")
        // No input lost or mistimed: the pass moved the content exactly as far as the replay,
        // and every state received carries one of the replay's times, moved to the pass.
        let moved = try Self.offset(finalLine) - pass.before.y
        #expect(abs(moved - passDistance) < 1e-6, "the pass moved \(moved) px, the replay \(passDistance) px")
        let expected = replayTimes.map { $0 + pass.firstT - replayTimes[0] }
        #expect(expected.last == pass.lastT, "the pass' last state has t \(pass.lastT), the replay's (moved) \(expected.last ?? -1)")
        let expectedTimes = Set(expected)
        let mistimed = streams.reduce(0) { total, stream in total + stream.indices(in: range).filter { !expectedTimes.contains(stream.times[$0]) }.count }
        #expect(mistimed == 0, "\(mistimed) states received with a time the replay does not have")
        #expect(churner.failures.isEmpty, "\(churner.failures)")

        // A subscriber without `rate` gets every state, unless its socket filled (it read too
        // slowly, and then latest wins): judged only where it certainly did not.
        var incomplete: [String] = []
        var unjudged = 0
        for (i, stream) in streams.enumerated() where stream.rate == nil {
            if stream.mostQueued >= LineClient.neverFullBelow { unjudged += 1; continue }
            let missed = stream.missed(in: range)
            if missed > 0 { incomplete.append("client \(i): \(missed) of \(range.count) states missing, at most \(stream.mostQueued) bytes ever waiting") }
        }
        #expect(incomplete.isEmpty, "subscribers without rate whose socket never filled lost states: \(incomplete.prefix(5))")

        // A subscriber with `rate` R never gets states closer than 1/R apart by the daemon's
        // clock (it sends on CLOCK_MONOTONIC, the clock of `t`). Bounded without timing the
        // daemon: its first send of the pass came after the pass' first input event was due
        // (`t` = firstT: replay events are handled once due), and its last before the read that
        // brought it returned; n states need (n - 1) intervals in between.
        var tooFrequent: [String] = []
        for (i, stream) in streams.enumerated() {
            guard let rate = stream.rate, let arrival = stream.arrivalOfLast(in: range) else { continue }
            let count = stream.indices(in: range).count
            let interval = Int64(1e9 / rate)  // the daemon's, in whole nanoseconds
            let span = (arrival + 1 - pass.firstT) * 1000
            if Int64(count - 1) * interval > span {
                tooFrequent.append("client \(i) (rate \(rate)): \(count) states within \(span / 1000) µs")
            }
        }
        #expect(tooFrequent.isEmpty, "more states than `rate` allows: \(tooFrequent.prefix(5))")

        // Within one frame (docs/security.md), a figure: for every state the engine computes in
        // the pass and every healthy subscriber, that state or a newer one is in the
        // subscriber's socket one frame after the state's time (with `rate` R: one frame plus
        // 1/R). Healthy: it reads its socket as states come. One whose reader came back late to
        // ~100 states waiting (StreamCheck.fellBehind) may have had its socket fill, and then
        // the daemon waits for it by design: counted, not judged. Judged by `make bench`, from
        // the line printed here.
        var classes = Self.healthyClasses.map { StalenessFigures(rate: $0.rate, frame: Self.frameMicros) }
        for (i, stream) in streams.enumerated() {
            let k = Self.healthyClasses.firstIndex { $0.rate == stream.rate }!
            if stream.fellBehind {
                classes[k].fellBehind += 1
                continue
            }
            classes[k].add(Staleness(of: stream, expected: expected), client: i)
        }
        let late = classes.flatMap(\.late)
        let worst = late.max { $0.lower < $1.lower }
        let judged = classes.reduce(0) { $0 + $1.subscribers }
        let conditions = (Scrolld.binary.path.contains("/release/") ? (priorityFailure == nil ? "release build, SCHED_FIFO" : "release build, normal priority") : "debug build") + placement
        print("OVERLOAD within one frame: \(late.isEmpty ? "met" : "not met") (\(late.count) of \(judged) healthy subscribers held a state later than the bound, at the socket; \(streams.count - judged) fell behind their socket and were not judged; \(conditions))")

        // The clients that never read: dropped once their socket stayed full for the stuck
        // timeout (their connections end; seen without reading, which would unstick them), and
        // no one else.
        var stillOpen = stuck
        let dropped = waitUntil(timeout: Double(Self.stuckTimeout) + 60) {
            stillOpen.removeAll { RawSocket.peerClosed($0) }
            return stillOpen.isEmpty
        }
        #expect(dropped, "\(stillOpen.count) of \(stuck.count) clients that never read were not dropped")
        #expect(daemon.stderr.components(separatedBy: "that has not read for more than \(Self.stuckTimeout).0 s").count - 1 >= stuck.count, "\(daemon.stderr.suffix(2000))")
        let healthyKept = waitUntil(timeout: 30) { probe.clientConnections(on: daemon.socketPath) == healthy.count + 1 }
        #expect(healthyKept, "the daemon holds \(probe.clientConnections(on: daemon.socketPath)) client connections: \(healthy.count) healthy subscribers and the gate expected")

        // Afterwards: every descriptor back, memory bounded, still serving.
        for stream in streams { close(stream.fd) }
        for fd in stuck { close(fd) }
        stuck.removeAll()
        gate.client.close()
        // Judged: the sockets. Whatever a client makes the daemon hold is one (its connection, the
        // duplicate the fan-out writes to); a descriptor of another kind (a pipe, an eventfd)
        // is the process' own, and one made once under load and kept is not a leak
        // (docs/decisions.md, "A fifth hostile round"); any such change is printed below.
        let released = {
            probe.clientConnections(on: daemon.socketPath) == 0
                && probe.lastingDescriptors(on: daemon.socketPath) - probe.descriptorsOtherThanSockets == baselineSockets
        }
        var fdsBack = waitUntil(timeout: 60, released)
        if !fdsBack {
            // A connection this process still holds is open, and the daemon is right to keep
            // it: what is judged is that it lets go of every one whose client closed it. Such a
            // descriptor is this harness' (a number closed twice, say), so it is named here for
            // whoever reads the figures, then closed, and the daemon must then let go of it.
            let held = SocketPeers.held(by: getpid(), connectedTo: daemon.socketPath)
            if !held.isEmpty {
                let healthyFDs = Set(streams.map(\.fd))
                let named = held.map { "fd \($0)\(healthyFDs.contains($0) ? " (a healthy subscriber's number)" : "")" }
                print("OVERLOAD: this test process still held \(held.count) connection(s) to the daemon after closing its own: \(named.joined(separator: ", ")); closed now")
                for fd in held { close(fd) }
                fdsBack = waitUntil(timeout: 60, released)
            }
        }
        let afterFDs = probe.descriptorCount
        let table = probe.descriptorTable
        let added = table.filter { baselineDescriptors[$0.key] != $0.value }.sorted { $0.key < $1.key }.map { "\($0.key) → \($0.value)" }
        let gone = baselineDescriptors.filter { table[$0.key] != $0.value }.sorted { $0.key < $1.key }.map { "\($0.key) → \($0.value)" }
        if fdsBack, !added.isEmpty || !gone.isEmpty {
            print("OVERLOAD: descriptors other than client connections changed over the run: new \(added.joined(separator: ", ")); gone \(gone.joined(separator: ", ")); threads before: \(baselineThreads.joined(separator: " ")), after: \(probe.threadNames.joined(separator: " "))")
        }
        if !fdsBack {
            let sockets = probe.descriptors.filter { $0.hasPrefix("socket:") }.map { String($0.dropFirst(8).dropLast()) }
            let ss = (try? Scrolld.runTool("/usr/bin/ss", ["-xanp"]).stdout) ?? Data()
            let mine = String(decoding: ss, as: UTF8.self).split(separator: "\n").filter { line in sockets.contains { line.contains(" \($0) ") } }
            Issue.record("the daemon holds \(afterFDs) descriptors, \(baselineFDs) before the clients (\(probe.clientConnections(on: daemon.socketPath)) client connections; since the baseline, new: \(added.joined(separator: ", ")); gone: \(gone.joined(separator: ", "))); threads before: \(baselineThreads.joined(separator: " ")), now: \(probe.threadNames.joined(separator: " ")):\n\(mine.joined(separator: "\n"))\n\(daemon.stderr.suffix(3000))")
        }
        let afterKiB = probe.residentKiB
        let client = try LineClient(path: daemon.socketPath)
        #expect(client.readJSON()?["type"] as? String == "welcome")
        #expect(client.request(["op": "ping"], id: 1)?["type"] as? String == "pong")
        client.close()

        // Figures (measured, not asserted: they depend on the machine and the build).
        let unthrottled = streams.filter { $0.rate == nil }.map { $0.missed(in: range) }
        let lateReport = late.prefix(3).map { "client \($0.client) held state \($0.state) (t \(expected[$0.state])) no sooner than \(Double($0.lower) / 1000) ms after its time" }
        let readerFigures = readers.figures
        let passReads = streams.flatMap { stream in stream.reads.filter { $0.arrival >= pass.firstT && $0.lower <= pass.lastT + 1_000_000 } }
        let loadAverage = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        let busy = sampler.share(from: pass.firstT, to: pass.lastT)
        let figures = """
            OVERLOAD figures: \(clients) clients (\(Self.healthyClasses.map { "\($0.count) \($0.rate.map { "at \(Int($0)) Hz" } ?? "unthrottled")" }.joined(separator: " + ")) healthy, \(Self.stuck) never reading, \(Self.churning) churning) for \(String(format: "%.1f", elapsed)) s; daemon \(Scrolld.binary.path.contains("/release/") ? "release" : "debug") build, \(priorityFailure == nil ? "SCHED_FIFO" : "normal priority (\(priorityFailure!))"); load average \(loadAverage)
              pass (attempt \(attempts)): seq \(range.lowerBound)...\(range.upperBound), \(range.count) states published of \(expected.count) computed (the replay's); moved \(moved) px (replay: \(passDistance) px)
              unthrottled: \(unthrottled.filter { $0 == 0 }.count) of \(unthrottled.count) received all \(range.count); states coalesced away per client: max \(unthrottled.max() ?? 0), total \(unthrottled.reduce(0, +)); \(unjudged) read too slowly to be judged (a socket filled)
            \(classes.map { "  \($0)" }.joined(separator: "\n"))
              late: \(lateReport.isEmpty ? "none" : lateReport.joined(separator: "; "))
              worst: \(worst.map { "state \($0.state) (t \(expected[$0.state])), at the socket \(Double($0.lower) / 1000) ms late; the daemon's CPU % busy/waiting per 10 ms from 100 ms before its time: \(sampler.timeline(from: expected[$0.state] - 100_000, to: expected[$0.state] + Int64($0.lower) + 20_000, step: 10_000))" } ?? "none late")
              daemon during the pass: \(busy.map { String(format: "%.0f %% of a CPU busy, %.0f %% waiting for one", $0.busy * 100, $0.waiting * 100) } ?? "?"); between passes (churn only): \(sampler.share(from: pass.firstT - 900_000, to: pass.firstT - 100_000).map { String(format: "%.0f %% busy", $0.busy * 100) } ?? "?"); daemon CPU \(String(format: "%.1f", probe.cpuSeconds)) s in all
              readers (\(readerFigures.count) threads): CPU \(readerFigures.map { String(format: "%.2f", $0.cpuSeconds) }.joined(separator: " + ")) s, waited for a CPU \(readerFigures.map { String(format: "%.2f", $0.runQueueSeconds) }.joined(separator: " + ")) s; per round \(LatencySummary(readerFigures.flatMap(\.roundMicros))), at most \(readerFigures.map(\.readyMax).max() ?? 0) sockets ready at once; own delay per read in the pass (returned − earliest arrival) \(LatencySummary(passReads.map { $0.arrival - $0.lower }))
              churn: \(churner.cycles) connections closed, \(churner.pongs) pongs read, backlog full \(churner.backlogFull) times
              descriptors: \(baselineFDs) before, \(connectedFDs) with everyone connected, \(afterFDs) after
              VmRSS: \(baselineKiB) KiB before, \(connectedKiB) KiB connected, \(endKiB) KiB at the pass' end, VmHWM \(peakKiB) KiB, \(afterKiB) KiB after
            """
        print(figures)
        // Bounded: a whole pass (2000+ more states offered to 200 stuck clients) adds nothing
        // that grows with it; a queue per stuck client would add tens of MiB.
        #expect(endKiB - connectedKiB < 16 * 1024, "\(figures)")
        #expect(peakKiB < baselineKiB + 256 * 1024, "\(figures)")
        #expect(daemon.stop() == 0)
    }

    static func offset(_ line: [UInt8]) throws -> Double {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        return try #require(object.number("contentOffset", "y"))
    }
}
