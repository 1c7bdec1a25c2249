import NIOCore
import ScrollInput
import ScrollLog
import ScrollModel
import ScrollConfig
import ScrollProtocol

/// Feeds a recorded log into the daemon in real time (`run --replay LOG`), re-stamping each
/// event onto the live monotonic clock, optionally sped up and looped: a demo source, and the
/// source of the daemon's integration tests on machines without input devices.
package final class ReplaySource {
    let events: [ScrollEvent]
    let speed: Double
    let loop: Bool
    /// The core owns its input source (`DaemonCore.input`), not the other way round.
    unowned let core: DaemonCore
    private var next = 0
    private var base: Timestamp = 0
    /// The wake-up for the next event (a scheduled callback: one per event, so no promise or
    /// closure is made for each, as `scheduleTask` would).
    private var task: NIOScheduledCallback?
    /// Device names seen in the log, for the `devices` request.
    private(set) var deviceNames: [Int: (String, DeviceCapabilities)] = [:]

    /// The pause between two passes of a looped log.
    static let loopGap: Timestamp = 1_000_000

    package init(events: [ScrollEvent], speed: Double, loop: Bool, core: DaemonCore) {
        self.events = events
        self.speed = speed
        self.loop = loop
        self.core = core
    }

    package func start() {
        base = core.eventLoop.timestamp
        next = 0
        scheduleNext()
    }

    package func stop() {
        task?.cancel()
        task = nil
    }

    /// Stops, and the devices of the pass under way leave, their gestures ending as an unplug
    /// ends them: the log is no longer an input source (``FallbackDemo``).
    package func end() {
        stop()
        removeDevices()
    }

    private func removeDevices() {
        for id in deviceNames.keys.sorted() { core.input(ScrollEvent(time: core.eventLoop.timestamp, device: id, kind: .deviceRemoved)) }
        deviceNames.removeAll()
    }

    /// Where event `index` falls on the live clock. A very slow replay of a long log could put
    /// it past what a timestamp holds: it is then due in thirty years, which is never.
    private func liveTime(of index: Int) -> Timestamp {
        let offset = (Double(events[index].time - events[0].time) / speed).rounded()
        return base + Timestamp(Swift.min(offset, Self.never))
    }

    /// Thirty years in µs: beyond any replay, far below where a timestamp overflows.
    private static let never = 1e15

    private func scheduleNext() {
        guard next < events.count else {
            guard loop, !events.isEmpty else { return }
            // Start over after a pause, as a fresh pass: devices come back through their
            // device_added events.
            base = core.eventLoop.timestamp + Self.loopGap
            next = 0
            removeDevices()
            return scheduleNext()
        }
        let time = liveTime(of: next)
        task = try? core.eventLoop.scheduleCallback(at: core.eventLoop.wakeUpDeadline(at: time), handler: WakeUp(source: self))
    }

    /// Every event due by `now` goes in, each with its own (re-stamped) time; then the next
    /// one is scheduled. Also the daemon's input barrier: before frames and timers due by `now`
    /// run, the events before them go in, so a loop that wakes late (a loaded machine) still
    /// applies everything in time order, exactly as `scrolld replay` does.
    ///
    /// With nothing due (a barrier between two events) the wake-up already scheduled for the
    /// next event stays as it is, rather than being cancelled and scheduled again at every
    /// frame for nothing.
    package func deliverDue(until now: Timestamp) {
        guard next < events.count, liveTime(of: next) <= now else {
            if task == nil { scheduleNext() }
            return
        }
        task?.cancel()
        task = nil
        var due: [ScrollEvent] = []
        while next < events.count, liveTime(of: next) <= now {
            var event = events[next]
            event.time = liveTime(of: next)
            switch event.kind {
            case let .deviceAdded(name, caps): deviceNames[event.device] = (name, caps)
            case .deviceRemoved: deviceNames[event.device] = nil
            default: break
            }
            due.append(event)
            next += 1
        }
        if !due.isEmpty { core.input(due) }
        scheduleNext()
    }
}

extension ReplaySource {
    /// The wake-up for the next event. NIO calls a scheduled callback on the loop it was
    /// scheduled from, and the source schedules only from its core's loop, the one thread
    /// that touches it: hence the unchecked `Sendable`. Through this entry point rather than
    /// `assumeIsolated().scheduleCallback` a wake-up costs no `NIOLoopBound` box, nor the
    /// generic metadata lookups that come with it (docs/performance-live.md, finding 8).
    struct WakeUp: NIOScheduledCallbackHandler, @unchecked Sendable {
        let source: ReplaySource

        func handleScheduledCallback(eventLoop: some EventLoop) {
            // It has run: nothing to cancel.
            source.task = nil
            source.deliverDue(until: source.core.eventLoop.timestamp)
        }
    }
}

extension ReplaySource: InputSource {
    package var devices: [DeviceInfo] {
        deviceNames.sorted { $0.key < $1.key }.map { DeviceInfo(id: $0.key, name: $0.value.0, capabilities: $0.value.1) }
    }

    /// A log has no libinput settings to apply.
    package func apply(_ settings: InputSettings) {}

    /// Everything due by now goes in first; the log holds nothing back beyond that.
    package func barrier(_ passed: @escaping @Sendable (Timestamp) -> Void) {
        let now = core.eventLoop.timestamp
        deliverDue(until: now)
        passed(now)
    }
}
