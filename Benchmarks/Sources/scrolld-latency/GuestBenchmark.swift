import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `scrolld-latency guest`: in the real-kernel guest (Tests/e2e), a uinput wheel mouse driven
/// on the generated log's wheel schedule, `scrolld run` reading it through libinput and udev,
/// and N subscribers. The state's `t` is the kernel's timestamp of the evdev frame, read here
/// from the event node itself, so the latency runs from the kernel's event to the subscriber.
enum GuestBenchmark {
    static func main(_ options: Options) throws {
        let work = try Workspace(options: options)
        let counts = try options.ints("subscribers", default: [1, 100])
        let events = try options.int("events", default: 3000)
        let idle = try options.double("idle", default: 10)
        let extraNodes = try options.string("evdev", default: "").split(separator: ",").map(String.init)
        let hook = try options.string("hook", default: "")
        let schedule = try EventSchedule.generate(generator: work.generator, events: events, leadIn: 0, to: work.path("guest.scrolllog"))
        guard let first = schedule.wheels.first?.offset else { throw HarnessError("the generated log has no wheel events") }
        let mouse = try VirtualMouse(name: "scrolld-latency wheel mouse")
        let node = try mouse.eventNode()
        print("scrolld-latency: uinput mouse at \(node); \(schedule.wheels.count) wheel events over \(String(format: "%.1f", Double(schedule.wheels.last!.offset - first) / 1e6)) s", to: &standardError)

        var runs: [LiveRun.Result] = []
        for count in counts {
            let socket = work.path("scrolld-\(count).sock")
            let daemon = try work.startDaemon(socket: socket, extra: [], name: "scrolld-\(count)")
            try waitUntilDaemonUses(mouse.name, socket: socket, daemon: daemon)
            let times = try EvdevTimes(nodes: [node] + extraNodes)
            times.start()
            let run = LiveRun(server: daemon, socket: socket, subscribers: count, frameRate: 120, idleSeconds: idle)
            print("scrolld-latency: \(count) subscriber(s): injecting", to: &standardError)
            runs.append(try run.measure(
                drive: {
                    let helper = hook.isEmpty ? nil : try ChildProcess(["/bin/sh", "-c", hook], logPath: work.path("hook-\(count).log"))
                    let base = Clock.nanoseconds() + 200_000_000
                    for wheel in schedule.wheels {
                        Clock.sleep(untilNanoseconds: base + (wheel.offset - first) * 1000)
                        try mouse.wheel(v120: wheel.v120)
                    }
                    helper?.wait()
                },
                inputTimes: { _ in times.stop() },
                // libinput merges hi-res steps below half a detent and the touchpad adds its
                // own: the count of input states is shown, not checked against the wheel's.
                expectedInputs: 0
            ))
            try Workspace.stop(daemon)
        }
        print(Report.guest(runs: runs, wheels: schedule.wheels.count, idleSeconds: idle))
        print("\nGuest load average (1, 5, 15 min) at the end: \(loadAverage()).")
    }

    /// Asks the daemon for its devices until the mouse is among them (udev and libinput take
    /// a moment, much longer under emulation).
    static func waitUntilDaemonUses(_ name: String, socket: String, daemon: ChildProcess, timeout: Double = 60) throws {
        let deadline = Clock.nanoseconds() + Int64(timeout * 1e9)
        while Clock.nanoseconds() < deadline {
            let fd = try UnixSocket.connect(socket)
            defer { close(fd) }
            var buffer: [UInt8] = []
            _ = try UnixSocket.readLine(fd, buffer: &buffer)
            try UnixSocket.writeAll(fd, Array(#"{"op":"devices","id":1}"#.utf8) + [10])
            let reply = String(decoding: try UnixSocket.readLine(fd, buffer: &buffer), as: UTF8.self)
            if reply.contains(name) { return }
            guard daemon.isRunning else { throw HarnessError("scrolld run exited:\n\(daemon.logTail())") }
            Clock.sleep(seconds: 0.2)
        }
        throw HarnessError("scrolld run did not list \(name) within \(timeout) s:\n\(daemon.logTail())")
    }
}

extension Report {
    static func guest(runs: [LiveRun.Result], wheels: Int, idleSeconds: Double) -> String {
        var out: [String] = []
        out.append("## Live latency, real-kernel guest (qemu TCG), uinput wheel mouse → libinput → scrolld run (\(wheels) wheel events in 1000 Hz bursts, and two-finger flings on a uinput touchpad)")
        out.append("")
        out.append("Latency = arrival at the subscriber − the kernel's evdev timestamp of the event (CLOCK_MONOTONIC). Input states: those whose t is an evdev frame time of the mouse or the touchpad.")
        out.append("")
        var latency = Table("subscribers", "input states", "p50", "p99", "p99.9", "max", "last subscriber p99", "delivered")
        for run in runs { latency.add(row(run)) }
        out.append(latency.markdown)
        out.append("")
        var frames = Table("subscribers", "frame states", "jitter p50", "p99", "p99.9", "max", "fling/animation frames p99", "consecutive frames 1 period apart", "further apart", "idle: voluntary switches / \(Int(idleSeconds)) s", "idle CPU", "VmRSS", "VmHWM", "daemon CPU per state")
        for run in runs {
            let j = run.frames.cells
            frames.add([
                "\(run.subscribers)", "\(run.deadlineStates)", j[0], j[1], j[2], j[3], run.motionFrames.cells[1],
                "\(run.framesOnGrid)", "\(run.framesSkipping) (longest gap \(LatencyStats.format(Double(run.longestFrameGap))))",
                run.idleSwitches.map { "\($0)" } ?? "–", run.idleCPU.map { LatencyStats.format(Double($0) / 1000) } ?? "–",
                kib(run.rss), kib(run.hwm), LatencyStats.format(run.cpuPerPublishedState / 1000),
            ])
        }
        out.append(frames.markdown)
        out.append("")
        out.append(checks(runs))
        return out.joined(separator: "\n")
    }
}
