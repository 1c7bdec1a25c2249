import Foundation

/// The tables run-live.sh prints and docs/performance-live.md shows.
enum Report {
    static func host(schedule: EventSchedule, leadIn: Int64, floors: [WriteLoopFloor.Result], floorRuns: [LiveRun.Result], daemonRuns: [LiveRun.Result], idleSeconds: Double) -> String {
        var out: [String] = []
        out.append("## Live latency, host, replay source (\(schedule.inputOffsets.count) events of Benchmarks/generate-log.py, 1000 Hz wheel bursts and 7 ms finger drags, \(String(format: "%.0f", Double(schedule.duration - leadIn) / 1e6)) s)")
        out.append("")
        out.append("Latency = arrival at the subscriber (CLOCK_MONOTONIC after read(2)) − the state's `t` (the event's instant on CLOCK_MONOTONIC). All subscribers read by one thread.")
        out.append("")
        var latency = Table("server", "subscribers", "input states", "p50", "p99", "p99.9", "max", "last subscriber p99", "delivered")
        for (floor, run) in zip(floorRuns, daemonRuns) {
            latency.add(["scrolld run"] + row(run))
            latency.add(["floor server"] + row(floor))
        }
        out.append(latency.markdown)
        out.append("")
        out.append("## Publish cost against the write(2) floor")
        out.append("")
        // CPU per state includes each wake-up's fixed cost; what a subscriber adds is the slope.
        var cost = Table("subscribers", "write(2) loop, readers asleep: p50", "p99", "per write", "write(2) loop back to back: p50", "per write", "scrolld CPU per published state", "per added subscriber", "floor server CPU per state", "per added subscriber", "line bytes (scrolld)")
        var previous: (Int, Double, Double)?
        for ((floor, run), floorRun) in zip(zip(floors, daemonRuns), floorRuns) {
            let slope = { (now: Double, before: Double, count: Int) in String(format: "%.2f µs", (now - before) / 1000 / Double(run.subscribers - count)) }
            cost.add([
                "\(floor.subscribers)", floor.paced.cells[0], floor.paced.cells[1], String(format: "%.0f ns", floor.perWritePaced),
                floor.backToBack.cells[0], String(format: "%.0f ns", floor.perWriteBackToBack),
                LatencyStats.format(run.cpuPerPublishedState / 1000),
                previous.map { slope(run.cpuPerPublishedState, $0.1, $0.0) } ?? "–",
                LatencyStats.format(floorRun.cpuPerPublishedState / 1000),
                previous.map { slope(floorRun.cpuPerPublishedState, $0.2, $0.0) } ?? "–",
                "\(run.lineBytes)",
            ])
            previous = (run.subscribers, run.cpuPerPublishedState, floorRun.cpuPerPublishedState)
        }
        out.append(cost.markdown)
        out.append("")
        out.append("## Frames (120 Hz) and idle")
        out.append("")
        out.append("Jitter = arrival − the frame's scheduled instant (its `t`), for every state not made by an input event.")
        out.append("")
        var frames = Table("subscribers", "frame states", "jitter p50", "p99", "p99.9", "max", "fling/animation frames p99", "consecutive frames 1 period apart", "further apart", "idle: voluntary switches / \(Int(idleSeconds)) s", "idle CPU", "states while idle")
        for run in daemonRuns {
            let j = run.frames.cells
            frames.add([
                "\(run.subscribers)", "\(run.deadlineStates)", j[0], j[1], j[2], j[3], run.motionFrames.cells[1],
                "\(run.framesOnGrid)", "\(run.framesSkipping) (longest gap \(LatencyStats.format(Double(run.longestFrameGap))))",
                run.idleSwitches.map { "\($0)" } ?? "–", run.idleCPU.map { LatencyStats.format(Double($0) / 1000) } ?? "–", "\(run.idleStates)",
            ])
        }
        out.append(frames.markdown)
        out.append("")
        out.append("## Memory")
        out.append("")
        var memory = Table("subscribers", "VmRSS", "VmHWM", "threads")
        for run in daemonRuns {
            memory.add(["\(run.subscribers)", kib(run.rss), kib(run.hwm), "\(run.threads)"])
        }
        out.append(memory.markdown)
        out.append("")
        out.append(checks(daemonRuns))
        return out.joined(separator: "\n")
    }

    static func row(_ run: LiveRun.Result) -> [String] {
        let c = run.input.cells
        let inputs = run.expectedInputs > 0 ? "\(run.inputStates)/\(run.expectedInputs)" : "\(run.inputStates)"
        return ["\(run.subscribers)", inputs, c[0], c[1], c[2], c[3], run.inputLast.cells[1], String(format: "%.1f %%", run.deliveredFraction * 100)]
    }

    static func kib(_ value: Int) -> String { value < 0 ? "–" : String(format: "%.1f MiB", Double(value) / 1024) }

    /// What the harness itself noticed (these would make the figures wrong).
    static func checks(_ runs: [LiveRun.Result]) -> String {
        var notes: [String] = []
        for run in runs {
            if run.clockAnomalies > 0 { notes.append("\(run.subscribers) subscribers: \(run.clockAnomalies) states arrived before their t") }
            if run.closedConnections > 0 { notes.append("\(run.subscribers) subscribers: \(run.closedConnections) connections closed by the server") }
            if run.inputStates < run.expectedInputs { notes.append("\(run.subscribers) subscribers: \(run.expectedInputs - run.inputStates) input states reached nobody") }
        }
        return notes.isEmpty ? "Harness checks: every input state reached a subscriber, no clock anomaly, no connection dropped." : "Harness notes:\n" + notes.map { "- " + $0 }.joined(separator: "\n")
    }
}
