import Foundation

/// A SCHED_DEADLINE reservation for the thread a benchmark times: `runtime` of CPU in every
/// `period`, which the kernel's earliest-deadline-first class guarantees ahead of every
/// real-time and normal thread, and caps (a thread that uses up its runtime waits for its next
/// period).
///
/// Why not SCHED_FIFO alone: since Linux 6.12 each CPU's fair deadline server gives normal
/// threads that have waited there up to 50 ms of every second ahead of SCHED_FIFO ones, and on
/// two CPUs shared with a thousand clients they always wait (docs/performance-live.md,
/// finding 8, has the scheduler trace). The fair server is itself a deadline entity with a
/// 1 s period, so a thread whose deadline is one frame away runs first.
///
/// Set through util-linux's `chrt` (2.37 or later for `--reset-on-fork` with `--deadline`;
/// Glibc's module has no `sched_setattr`), with
/// `SCHED_RESET_ON_FORK`: the kernel refuses to clone a SCHED_DEADLINE thread without it, and
/// libdispatch, which NIO's shutdown uses, then retries making a worker thread once a second
/// for ever — the daemon would never stop.
struct DeadlineReservation: CustomStringConvertible {
    var runtime: Duration
    var period: Duration

    /// `9.5/10`: runtime and period in milliseconds; nil if `text` is not that.
    init?(milliseconds text: String) {
        let fields = text.split(separator: "/", omittingEmptySubsequences: false)
        let parts = fields.compactMap { Double($0) }
        guard fields.count == 2, parts.count == 2, parts[0] > 0, parts[1] >= parts[0] else { return nil }
        runtime = .microseconds(Int64((parts[0] * 1000).rounded()))
        period = .microseconds(Int64((parts[1] * 1000).rounded()))
    }

    var description: String { "SCHED_DEADLINE \(Self.milliseconds(runtime)) ms every \(Self.milliseconds(period)) ms" }

    /// The threads of process `pid` whose name starts with `prefix` (the event loop's
    /// `NIO-ELT-`); the others keep their policy. nil, or why not.
    func apply(toThreadsOf pid: Int32, named prefix: String) -> String? {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        var applied = 0
        for task in tasks {
            let name = (try? String(contentsOfFile: "/proc/\(pid)/task/\(task)/comm", encoding: .utf8)) ?? ""
            guard name.hasPrefix(prefix) else { continue }
            let arguments = [
                "--reset-on-fork", "--deadline", "--sched-runtime", Self.nanoseconds(runtime),
                "--sched-deadline", Self.nanoseconds(period), "--sched-period", Self.nanoseconds(period), "--pid", "0", task,
            ]
            do {
                let result = try Scrolld.runTool("/usr/bin/chrt", arguments)
                guard result.status == 0 else { return "chrt \(arguments.joined(separator: " ")): \(result.stderr)" }
            } catch {
                return "chrt: \(error)"
            }
            applied += 1
        }
        return applied > 0 ? nil : "no thread of \(pid) is named \(prefix)…"
    }

    private static func nanoseconds(_ duration: Duration) -> String {
        String(duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let micros = duration.components.seconds * 1_000_000 + duration.components.attoseconds / 1_000_000_000_000
        return micros % 1000 == 0 ? String(micros / 1000) : String(Double(micros) / 1000)
    }
}
