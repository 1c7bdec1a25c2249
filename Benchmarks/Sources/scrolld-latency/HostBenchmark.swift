import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `scrolld-latency host`: on this machine, for each subscriber count, the write(2) floor, the
/// paced floor server and `scrolld run --replay` of one generated log, then the tables.
enum HostBenchmark {
    static func main(_ options: Options) throws {
        let work = try Workspace(options: options)
        let counts = try options.ints("subscribers", default: [1, 100, 1000])
        let events = try options.int("events", default: 6000)
        let idle = try options.double("idle", default: 10)
        let leadIn = Int64(try options.double("lead-in", default: 3) * 1e6)
        let lineBytes = try options.int("line-bytes", default: 420)
        let schedule = try EventSchedule.generate(generator: work.generator, events: events, leadIn: leadIn, to: work.path("live.scrolllog"))
        print("scrolld-latency: work folder \(work.directory); log of \(schedule.inputOffsets.count) events over \(String(format: "%.1f", Double(schedule.duration - leadIn) / 1e6)) s after a \(leadIn / 1_000_000) s lead-in", to: &standardError)

        let loadBefore = loadAverage()
        var floors: [WriteLoopFloor.Result] = []
        var floorRuns: [LiveRun.Result] = []
        var daemonRuns: [LiveRun.Result] = []
        for count in counts {
            print("scrolld-latency: \(count) subscriber(s): write(2) loop", to: &standardError)
            floors.append(try WriteLoopFloor.measure(subscribers: count, lineBytes: lineBytes, rounds: count >= 1000 ? 500 : 2000))

            print("scrolld-latency: \(count) subscriber(s): floor server", to: &standardError)
            let floorSocket = work.path("floor-\(count).sock")
            let floor = try ChildProcess([Workspace.executable, "floor-serve", floorSocket, schedule.path, "\(count)", "\(lineBytes)"], logPath: work.path("floor-\(count).log"))
            while access(floorSocket, F_OK) != 0 {
                guard floor.isRunning else { throw HarnessError("the floor server exited:\n\(floor.logTail())") }
                Clock.sleep(seconds: 0.01)
            }
            Clock.sleep(seconds: 0.05)  // from bind to listen
            var floorRun = LiveRun(server: floor, socket: floorSocket, subscribers: count, frameRate: 120, idleSeconds: nil)
            floorRun.settles = false
            floorRuns.append(try floorRun.measure(drive: { waitForSchedule(schedule) }, inputTimes: { replayInputTimes(schedule, $0) }, expectedInputs: schedule.inputOffsets.count))
            floor.stop(signal: SIGKILL)

            print("scrolld-latency: \(count) subscriber(s): scrolld run --replay", to: &standardError)
            let socket = work.path("scrolld-\(count).sock")
            let daemon = try work.startDaemon(socket: socket, extra: ["--replay", schedule.path], name: "scrolld-\(count)")
            let run = LiveRun(server: daemon, socket: socket, subscribers: count, frameRate: 120, idleSeconds: idle)
            daemonRuns.append(try run.measure(drive: { waitForSchedule(schedule) }, inputTimes: { replayInputTimes(schedule, $0) }, expectedInputs: schedule.inputOffsets.count))
            try Workspace.stop(daemon)
        }
        print(Report.host(schedule: schedule, leadIn: leadIn, floors: floors, floorRuns: floorRuns, daemonRuns: daemonRuns, idleSeconds: idle))
        print("\nLoad average (1, 5, 15 min) before: \(loadBefore); after: \(loadAverage()).")
    }

    /// Sleeps until the schedule's last event is due, counted from now (an upper bound: the
    /// server took its base before the subscribers connected).
    static func waitForSchedule(_ schedule: EventSchedule) {
        Clock.sleep(seconds: Double(schedule.duration) / 1e6 + 0.2)
    }

    /// The replay source re-stamps event i at `base + offset[i]`: the first state published is
    /// the first event's, which gives `base`.
    static func replayInputTimes(_ schedule: EventSchedule, _ states: [UInt32: SubscriberSet.StateInfo]) -> Set<Int64> {
        guard let first = states.keys.min(), let info = states[first], let offset = schedule.inputOffsets.first else { return [] }
        let base = info.t - offset
        return Set(schedule.inputOffsets.map { base + $0 })
    }
}

/// /proc/loadavg's three averages: other work on this 2-core machine shows in every figure.
func loadAverage() -> String {
    (ProcessStats.read("/proc/loadavg") ?? "").split(separator: " ").prefix(3).joined(separator: ", ")
}

nonisolated(unsafe) var standardError = StandardError()

struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        var bytes = Array(string.utf8)
        _ = bytes.withUnsafeMutableBytes { Glibc.write(2, $0.baseAddress, $0.count) }
    }
}
