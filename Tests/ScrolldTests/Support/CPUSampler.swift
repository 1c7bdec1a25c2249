import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Samples a process' CPU time (all threads, /proc/PID/schedstat) every few milliseconds on a
/// thread of its own, so that how busy the process was can be told for any stretch of time.
final class CPUSampler: @unchecked Sendable {
    struct Sample {
        /// CLOCK_MONOTONIC, µs.
        var time: Int64
        /// On-CPU and run-queue nanoseconds so far, summed over the process' threads.
        var cpu: Int64
        var waited: Int64
    }

    let pid: Int32
    let interval: useconds_t
    private let lock = NSLock()
    private var samples: [Sample] = []
    private var stopRequested = false
    private let finished = DispatchSemaphore(value: 0)

    private let realTimePriority: Int32?

    /// `realTimePriority`: the sampling thread runs under SCHED_FIFO at that priority, so
    /// that it samples on time on a busy machine.
    init(pid: Int32, intervalMicros: useconds_t = 5000, realTimePriority: Int32? = nil) {
        self.pid = pid
        interval = intervalMicros
        self.realTimePriority = realTimePriority
    }

    func start() {
        Thread.detachNewThread { [self] in
            if let realTimePriority { _ = RealTimePriority.applyToCurrentThread(priority: realTimePriority) }
            let tasks = "/proc/\(pid)/task"
            while !lock.withLock({ stopRequested }) {
                var cpu: Int64 = 0, waited: Int64 = 0
                for id in (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? [] {
                    guard let text = try? String(contentsOfFile: "\(tasks)/\(id)/schedstat", encoding: .utf8) else { continue }
                    let fields = text.split(separator: " ")
                    if fields.count > 1 { cpu += Int64(fields[0]) ?? 0; waited += Int64(fields[1]) ?? 0 }
                }
                let sample = Sample(time: monotonicMicroseconds(), cpu: cpu, waited: waited)
                lock.withLock { samples.append(sample) }
                usleep(interval)
            }
            finished.signal()
        }
    }

    func stop() {
        lock.withLock { stopRequested = true }
        finished.wait()
    }

    /// `share` over consecutive steps of `step` µs from `from` to `to`, as "busy/waiting" in
    /// percent per step.
    func timeline(from: Int64, to: Int64, step: Int64) -> String {
        stride(from: from, to: to, by: Int(step)).map { start in
            share(from: start, to: start + step).map { String(format: "%.0f/%.0f", $0.busy * 100, $0.waiting * 100) } ?? "?"
        }.joined(separator: " ")
    }

    /// The share of one CPU the process used, and spent waiting for one, between `from` and `to`
    /// (µs, CLOCK_MONOTONIC), from the samples nearest inside.
    func share(from: Int64, to: Int64) -> (busy: Double, waiting: Double)? {
        lock.withLock {
            guard let a = samples.first(where: { $0.time >= from }), let b = samples.last(where: { $0.time <= to }), b.time > a.time else { return nil }
            let span = Double(b.time - a.time) * 1000
            return (Double(b.cpu - a.cpu) / span, Double(b.waited - a.waited) / span)
        }
    }
}
