import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// Issue 8, part 2: a thousand clients at once, a fifth of them never reading and a tenth
/// connecting and disconnecting in a loop, while a replay feeds 1000 events a second. See
/// docs/security.md for what is promised and the figures measured.
@Suite("scrolld under overload", .serialized)
struct OverloadTests {
    static let unthrottled = 100  // healthy subscribers that take every state
    static let rateLimited = 600  // healthy subscribers at `rate` = the frame rate
    static let stuck = 200  // subscribers that never read
    static let churning = 100  // connect and disconnect in a loop
    static let frameRate = 120.0
    static let frameMicros = Int64((1e6 / frameRate).rounded(.up))
    static let readerThreads = 2

    /// One pass of the looped log: a touchpad drag of 2000 finger events 1 ms apart (1 px
    /// each, 1000 px/s) from 1 s in, then the fingers lift: a fling, to rest in about half a
    /// second with `deceleration_rate = 0.99`. The replay source then pauses 1 s and starts over.
    static let dragEvents = 2000
    static var passLog: String {
        var lines = [#"{"format":"scrolld-events","version":1,"created":"2026-11-22T00:00:00Z","source":"overload test"}"#]
        lines.append(#"{"t":0,"dev":1,"type":"device_added","name":"touchpad","caps":["finger"]}"#)
        for i in 0..<dragEvents { lines.append(#"{"t":\#(1_000_000 + i * 1000),"dev":1,"type":"finger","delta":{"y":1}}"#) }
        lines.append(#"{"t":\#(1_000_000 + dragEvents * 1000),"dev":1,"type":"finger","delta":{"y":0}}"#)
        return lines.joined(separator: "\n") + "\n"
    }

    /// `main`, the measured container, starts bound to a device that does not exist (no input
    /// reaches it); `clock`, its twin, gets every pass and tells the test where the replay is.
    static let config = """
        [physics]
        deceleration_rate = 0.99
        [containers.main]
        contentSize = "800x100000000"
        devices = ["(gate closed)"]
        [containers.clock]
        contentSize = "800x100000000"
        """

    @Test func aThousandClientsWhileAReplayFeedsAThousandEventsPerSecond() throws {
        let clients = Self.unthrottled + Self.rateLimited + Self.stuck + Self.churning
        let limit = raiseOpenFileLimit()
        try #require(limit >= UInt64(clients + 500), "this test needs \(clients + 500) descriptors; the hard RLIMIT_NOFILE is \(limit)")
        let log = try Scrolld.temporaryFile(Self.passLog)
        // What one pass moves the content by, from the same engine without any client.
        let replay = try Scrolld.run(["replay", log, "--content-size", "800x100000000", "--set", "physics.deceleration_rate=0.99"])
        try #require(replay.status == 0 && replay.states.last?.phase == "idle", "\(replay.stderr)")
        let passDistance = try #require(replay.states.last?.y)
        let replayTimes = replay.states.compactMap { $0.t }
        try #require(replayTimes.count == replay.states.count)

        // Started with a soft limit of 256 descriptors: the daemon must raise it itself.
        let daemon = try DaemonProcess(config: Self.config, arguments: ["--loop"], replay: log, softFileLimit: 256)
        let probe = daemon.probe
        let limits = try #require(probe.limit("Max open files"))
        #expect(limits.soft == limits.hard && limits.soft != "256", "soft \(limits.soft), hard \(limits.hard)")
        #expect(daemon.stderr.contains("open file limit raised from 256 to \(limits.hard)"), "\(daemon.stderr)")
        // What the daemon holds besides client connections (the harness' probe connection may
        // not be closed on its side yet).
        let baselineFDs = probe.descriptorsWithoutClients(on: daemon.socketPath)
        let baselineKiB = probe.residentKiB
        let started = Date()

        let gate = try PassGate(path: daemon.socketPath, gated: "main", twin: "clock")
        // The healthy subscribers, then their readers, then the stuck ones and the churners.
        var healthy: [StreamCheck] = []
        for i in 0..<(Self.unthrottled + Self.rateLimited) {
            let fd = try RawSocket.connectRetrying(daemon.socketPath, nonblocking: true)
            let rate = i < Self.unthrottled ? nil : Self.frameRate
            let rateField = rate.map { ",\"rate\":\($0)" } ?? ""
            #expect(RawSocket.send(fd, #"{"op":"subscribe","container":"main","id":\#(i + 1)\#(rateField)}"# + "\n") > 0)
            healthy.append(StreamCheck(fd: fd, rate: rate))
        }
        let readers = SubscriberReaders(healthy, threads: Self.readerThreads)
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
        // machine too busy to react within the 2 s between passes, the next pass is tried.
        var measured: PassGate.Pass?
        var attempts = 0
        var daemonBefore = probe.schedule, daemonAfter = daemonBefore
        var testCPUBefore = processCPUSeconds(), testCPUAfter = testCPUBefore
        var windowStart = Date(), windowSeconds = 0.0
        while measured == nil, attempts < 4 {
            attempts += 1
            daemonBefore = probe.schedule
            testCPUBefore = processCPUSeconds()
            windowStart = Date()
            let pass = try #require(gate.letOnePassThrough(open: ["op": "configure", "container": "main", "devices": [String]()]))
            let delivered = waitUntil(timeout: 120) { readers.all { $0.lastSeq >= pass.finalSeq } }
            daemonAfter = probe.schedule
            testCPUAfter = processCPUSeconds()
            windowSeconds = Date().timeIntervalSince(windowStart)
            try #require(delivered, "some healthy subscribers never got past seq \(pass.finalSeq)")
            let streams = readers.streams
            func t(of seq: Int) -> Int64? {
                for stream in streams { if let k = stream.seqs.firstIndex(of: Int32(seq)) { return stream.times[k] } }
                return nil
            }
            let finalIdle = streams.contains { $0.idleLines[pass.finalSeq] != nil }
            if pass.before.phase == "idle", t(of: pass.seqBefore + 1) == pass.firstT, t(of: pass.finalSeq) == pass.lastT, finalIdle { measured = pass }
        }
        let pass = try #require(measured, "no pass was let through cleanly in \(attempts) attempts")
        let (first, last) = (pass.seqBefore + 1, pass.finalSeq)
        let endKiB = probe.residentKiB
        let peakKiB = probe.peakResidentKiB
        churner.stop()
        readers.stop()
        let elapsed = Date().timeIntervalSince(started)
        let streamsSeen = readers.streams
        let readerFigures = readers.figures

        // Every healthy subscriber: never a state older than one it already has, and the pass'
        // final state, byte for byte the same line everywhere.
        let finalLine = try #require(streamsSeen.lazy.compactMap { $0.idleLines[last] }.first, "no subscriber has a line for seq \(last)")
        var disordered = 0, withoutFinal = 0, differentFinal = 0
        for (i, stream) in streamsSeen.enumerated() {
            if !stream.disorder.isEmpty {
                disordered += 1
                if disordered <= 3 { Issue.record("client \(i): \(stream.disorder.prefix(5))") }
            }
            switch stream.idleLines[last] {
            case nil: withoutFinal += 1
            case let line? where line != finalLine: differentFinal += 1
            default: break
            }
        }
        #expect(disordered == 0, "\(disordered) subscribers received a state older than one before it")
        #expect(withoutFinal == 0, "\(withoutFinal) subscribers never received the pass' final state (seq \(last))")
        #expect(differentFinal == 0, "\(differentFinal) subscribers received a different line for seq \(last)")
        // No input lost or mistimed: the pass moved the content exactly as far as the replay,
        // and every state received has one of the replay's times, moved to the pass.
        let moved = try Self.offset(finalLine) - pass.before.y
        #expect(abs(moved - passDistance) < 1e-6, "the pass moved \(moved) px, the replay \(passDistance) px")
        let expected = replayTimes.map { $0 + pass.firstT - replayTimes[0] }
        #expect(expected.last == pass.lastT, "the pass ended at t \(pass.lastT), the replay at \(expected.last ?? -1) (moved)")
        let expectedSet = Set(expected)
        let range = first...last
        var mistimed = 0
        for stream in streamsSeen {
            mistimed += stream.indices(in: range).filter { !expectedSet.contains(stream.times[$0]) }.count
        }
        #expect(mistimed == 0, "\(mistimed) states received with a time the replay does not have")
        #expect(churner.failures.isEmpty, "\(churner.failures)")
        #expect(churner.cycles > Self.churning)

        // Within one frame (docs/security.md): every state the engine computed in the pass is
        // held by every healthy subscriber, itself or a newer one, one frame after its time (a
        // rate-limited one: one frame plus its interval); and no more than `rate` states a second.
        var unthrottledFigures = StalenessFigures(name: "unthrottled", bound: Self.frameMicros)
        var limitedFigures = StalenessFigures(name: "rate \(Int(Self.frameRate)) Hz", bound: Self.frameMicros + Int64(1e6 / Self.frameRate))
        var tooFrequent: [String] = []
        for (i, stream) in streamsSeen.enumerated() {
            let staleness = Staleness(of: stream, expected: expected)
            if let rate = stream.rate {
                limitedFigures.add(staleness, client: i)
                // Sends at least 1/rate apart: n states need (n − 1)/rate between the first
                // send (after its read's lower bound) and the last (before its read returned).
                let received = stream.indices(in: range)
                if received.count > 1,
                   let firstRead = stream.reads.first(where: { Int($0.end) > received.lowerBound }),
                   let lastRead = stream.reads.first(where: { Int($0.end) >= received.upperBound }) {
                    let span = Double(lastRead.arrival - firstRead.lower) / 1e6
                    if Double(received.count - 1) > span * rate + 1e-9 { tooFrequent.append("client \(i): \(received.count) states in \(span) s") }
                }
            } else {
                unthrottledFigures.add(staleness, client: i)
            }
        }
        #expect(tooFrequent.isEmpty, "more states than `rate` allows: \(tooFrequent.prefix(5))")
        // Afterwards: every descriptor back, memory bounded, still serving.
        for stream in streamsSeen { close(stream.fd) }
        for fd in stuck { close(fd) }
        stuck.removeAll()
        gate.client.close()
        let fdsBack = waitUntil(timeout: 60) { probe.clientConnections(on: daemon.socketPath) == 0 && probe.descriptorCount == baselineFDs }
        let afterFDs = probe.descriptorCount
        if !fdsBack {
            let sockets = probe.descriptors.filter { $0.hasPrefix("socket:") }.map { String($0.dropFirst(8).dropLast()) }
            let ss = (try? Scrolld.runTool("/usr/bin/ss", ["-xanp"]).stdout) ?? Data()
            let mine = String(decoding: ss, as: UTF8.self).split(separator: "\n").filter { line in sockets.contains { line.contains(" \($0) ") } }
            Issue.record("the daemon holds \(afterFDs) descriptors, \(baselineFDs) before the clients:\n\(probe.descriptors.joined(separator: " "))\n\(mine.joined(separator: "\n"))\n\(daemon.stderr.suffix(3000))")
        }
        let afterKiB = probe.residentKiB
        let client = try LineClient(path: daemon.socketPath)
        #expect(client.readJSON()?["type"] as? String == "welcome")
        #expect(client.request(["op": "ping"], id: 1)?["type"] as? String == "pong")
        client.close()

        // Figures (measured, not asserted: they depend on the machine's load).
        let unthrottledStreams = streamsSeen.filter { $0.rate == nil }, limitedStreams = streamsSeen.filter { $0.rate != nil }
        let missed = unthrottledStreams.map { $0.missed(in: range) }
        let limitedCounts = limitedStreams.map { $0.indices(in: range).count }
        // The reader's own delay: per read in the pass, when it returned minus the earliest its
        // bytes can have arrived.
        let passReads = streamsSeen.flatMap { stream in stream.reads.filter { $0.arrival >= pass.firstT && $0.lower <= pass.lastT + 1_000_000 } }
        let readerDelay = LatencySummary(passReads.map { $0.arrival - $0.lower })
        let rounds = readerFigures.flatMap(\.roundMicros)
        let (daemonCPU, daemonWaited) = (daemonAfter.cpu - daemonBefore.cpu, daemonAfter.runQueue - daemonBefore.runQueue)
        let loadAverage = (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8))?.split(separator: " ").prefix(3).joined(separator: " ") ?? "?"
        let figures = """
            OVERLOAD figures: \(clients) clients (\(Self.unthrottled) unthrottled + \(Self.rateLimited) at \(Int(Self.frameRate)) Hz healthy, \(Self.stuck) never reading, \(Self.churning) churning) for \(String(format: "%.1f", elapsed)) s, daemon CPU \(String(format: "%.1f", probe.cpuSeconds)) s, load average \(loadAverage)
              pass (attempt \(attempts)): seq \(first)...\(last), \(range.count) states published of \(expected.count) computed by the replay; moved \(moved) px (replay: \(passDistance) px)
              unthrottled: \(missed.filter { $0 == 0 }.count) of \(missed.count) received all \(range.count); states coalesced away per client: max \(missed.max() ?? 0), total \(missed.reduce(0, +))
              rate-limited: \(limitedCounts.min() ?? 0)...\(limitedCounts.max() ?? 0) states each in the pass
              \(unthrottledFigures)
              \(limitedFigures)
              daemon from the gate's wait to the pass delivered (\(String(format: "%.2f", windowSeconds)) s wall, the pass' states span \(String(format: "%.2f", Double(pass.lastT - pass.firstT) / 1e6)) s): CPU \(String(format: "%.2f", daemonCPU)) s, waiting for a CPU \(String(format: "%.2f", daemonWaited)) s; test process CPU \(String(format: "%.2f", testCPUAfter - testCPUBefore)) s
              readers (\(readerFigures.count) threads): CPU \(readerFigures.map { String(format: "%.2f", $0.cpuSeconds) }.joined(separator: " + ")) s, waiting for a CPU \(readerFigures.map { String(format: "%.2f", $0.runQueueSeconds) }.joined(separator: " + ")) s over the test; rounds \(LatencySummary(rounds)), at most \(readerFigures.map(\.readyMax).max() ?? 0) sockets ready at once; own delay per read in the pass \(readerDelay)
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


/// This process' user plus system CPU time so far, in seconds.
func processCPUSeconds() -> Double {
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage)
    return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
}
