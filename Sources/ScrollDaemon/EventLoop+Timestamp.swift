import NIOCore
import ScrollModel

extension EventLoop {
    /// The loop's clock in the engine's unit, µs. Live, NIO's deadlines are CLOCK_MONOTONIC
    /// uptime (Linux), the clock libinput stamps events with; on an `EmbeddedEventLoop` it is
    /// the test's virtual time. The daemon's logic reads no other clock.
    package var timestamp: Timestamp { Timestamp(now.uptimeNanoseconds / 1000) }

    /// When a wake-up for `time` runs: at `time`, or, with `time` already past when it is
    /// scheduled (the loop took longer than a frame to deliver the last one), a breath from now.
    /// NIO runs every task that is due before it waits in epoll again, so wake-ups that are
    /// always due when scheduled would keep it from ever reading a socket again; the breath is
    /// its pass through epoll, where every connection is read and answered.
    package func wakeUpDeadline(at time: Timestamp) -> NIODeadline {
        wakeUpDeadline(NIODeadline(timestamp: time))
    }

    /// ``wakeUpDeadline(at:)`` for a deadline on NIO's clock.
    package func wakeUpDeadline(_ deadline: NIODeadline) -> NIODeadline {
        let now = now
        return deadline > now ? deadline : now + Self.breath
    }
}

extension EventLoop {
    /// How long a late wake-up waits for the loop's pass through epoll.
    package static var breath: TimeAmount { .milliseconds(1) }
}

extension NIODeadline {
    /// The deadline at `time` µs on the loop's clock (beyond what nanoseconds hold: never).
    package init(timestamp time: Timestamp) {
        let (nanoseconds, overflow) = UInt64(Swift.max(0, time)).multipliedReportingOverflow(by: 1000)
        self = overflow ? .distantFuture : .uptimeNanoseconds(nanoseconds)
    }
}
