import NIOCore
import ScrollModel

extension EventLoop {
    /// The loop's clock in the engine's unit, µs. Live, NIO's deadlines are CLOCK_MONOTONIC
    /// uptime (Linux), the clock libinput stamps events with; on an `EmbeddedEventLoop` it is
    /// the test's virtual time. The daemon's logic reads no other clock.
    package var timestamp: Timestamp { Timestamp(now.uptimeNanoseconds / 1000) }
}

extension NIODeadline {
    /// The deadline at `time` µs on the loop's clock (beyond what nanoseconds hold: never).
    package init(timestamp time: Timestamp) {
        let (nanoseconds, overflow) = UInt64(Swift.max(0, time)).multipliedReportingOverflow(by: 1000)
        self = overflow ? .distantFuture : .uptimeNanoseconds(nanoseconds)
    }
}
