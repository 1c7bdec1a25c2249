import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `scrolld-latency soak`: `scrolld run --replay LOG --loop --speed X` of a generated log until
/// the daemon has been fed `--events` events, with subscribers reading everything, sampling
/// the daemon's resident memory as it goes. Memory must stay flat after the first pass.
enum SoakBenchmark {
    struct Sample {
        var seconds: Double
        var events: Int
        var published: UInt32
        var rss: Int
    }

    static func main(_ options: Options) throws {
        let work = try Workspace(options: options)
        let total = try options.int("events", default: 10_000_000)
        let logEvents = try options.int("log-events", default: 1_000_000)
        let speed = try options.double("speed", default: 200)
        let count = try options.int("subscribers", default: 4)
        let every = try options.double("sample-every", default: 1)
        let schedule = try EventSchedule.generate(generator: work.generator, events: logEvents, leadIn: 0, to: work.path("soak.scrolllog"))
        let scaled = schedule.inputOffsets.map { Int64((Double($0) / speed).rounded()) }
        let passLength = scaled.last! + 1_000_000  // the replay source pauses 1 s between passes
        let passes = Double(total) / Double(scaled.count)
        print("scrolld-latency: soak of \(total) events: \(String(format: "%.1f", passes)) passes of a \(scaled.count)-event log at \(speed)× (\(String(format: "%.0f", Double(scaled.count) / (Double(scaled.last!) / 1e6))) events/s, \(String(format: "%.0f", passes * Double(passLength) / 1e6)) s), \(count) subscribers", to: &standardError)

        let socket = work.path("soak.sock")
        let daemon = try work.startDaemon(socket: socket, extra: ["--replay", schedule.path, "--loop", "--speed", "\(speed)"], name: "soak")
        // The replay source started just before the socket accepted: events are counted from here.
        let start = Clock.microseconds()
        let set = try SubscriberSet(path: socket, count: count, keepsArrivals: false)
        set.start()
        let stats = daemon.stats
        var samples: [Sample] = []
        while true {
            Clock.sleep(seconds: every)
            guard daemon.isRunning else { throw HarnessError("scrolld run exited during the soak:\n\(daemon.logTail())") }
            let elapsed = Clock.microseconds() - start
            let pass = Int(elapsed / passLength)
            let within = elapsed - Int64(pass) * passLength
            var low = 0, high = scaled.count
            while low < high { let mid = (low + high) / 2; if scaled[mid] <= within { low = mid + 1 } else { high = mid } }
            let fed = pass * scaled.count + low
            samples.append(Sample(seconds: Double(elapsed) / 1e6, events: fed, published: set.lastSeq.load(ordering: .relaxed), rss: stats.memory().rss))
            if samples.count % 30 == 0 {
                print("scrolld-latency: \(fed) events, RSS \(samples.last!.rss) KiB", to: &standardError)
            }
            if fed >= total { break }
        }
        let hwm = stats.memory().hwm
        let cpu = stats.cpuNanoseconds()
        let lag = Clock.microseconds() - set.lastT.load(ordering: .relaxed)
        _ = set.stop()
        let latency = set.summary
        set.disconnect()
        try Workspace.stop(daemon)
        print(report(samples: samples, passEvents: scaled.count, speed: speed, subscribers: count, hwm: hwm, cpu: cpu, latency: latency, lag: lag))
    }

    static func report(samples: [Sample], passEvents: Int, speed: Double, subscribers: Int, hwm: Int, cpu: Int64, latency: LatencyStats, lag: Int64) -> String {
        let warm = samples.filter { $0.events >= passEvents }
        let xs = warm.map { Double($0.events) / 1e6 }, ys = warm.map { Double($0.rss) }
        let n = Double(xs.count)
        let mx = xs.reduce(0, +) / n, my = ys.reduce(0, +) / n
        let slope = zip(xs, ys).reduce(0) { $0 + ($1.0 - mx) * ($1.1 - my) } / max(1e-9, xs.reduce(0) { $0 + ($1 - mx) * ($1 - mx) })
        var table = Table("events fed", "states published", "VmRSS")
        var mark = 0
        for sample in samples where sample.events >= mark {
            table.add(["\(sample.events)", "\(sample.published)", Report.kib(sample.rss)])
            mark = (sample.events / 1_000_000 + 1) * 1_000_000
        }
        if let last = samples.last { table.add(["\(last.events)", "\(last.published)", Report.kib(last.rss)]) }
        let last = samples.last!
        // Allocators settle over a few passes; the second half shows what is left of any growth.
        let half = warm.filter { $0.events >= last.events / 2 }
        let halfGrowth = (half.last?.rss ?? 0) - (half.first?.rss ?? 0)
        return """
            ## Memory soak: \(last.events) events (a \(passEvents)-event log looped at \(speed)×), \(subscribers) subscribers, \(String(format: "%.0f", last.seconds)) s

            \(table.markdown)

            After the first pass (\(warm.count) samples, one a second): VmRSS \(Report.kib(Int(ys.min() ?? 0)))–\(Report.kib(Int(ys.max() ?? 0))), least-squares slope \(String(format: "%+.1f", slope)) KiB per million events; over the second half (\(half.first?.events ?? 0) to \(last.events) events) \(halfGrowth >= 0 ? "+" : "")\(halfGrowth) KiB. VmHWM \(Report.kib(hwm)) (loading and parsing the log at start).
            Daemon CPU \(String(format: "%.1f", Double(cpu) / 1e9)) s; latency over the soak (every arrival) p50 \(LatencyStats.format(latency.percentile(50))), p99 \(LatencyStats.format(latency.percentile(99))), max \(LatencyStats.format(latency.max)); the last state read was \(LatencyStats.format(Double(lag))) behind the clock at the end.
            """
    }
}
