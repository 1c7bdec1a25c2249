import NIOCore
import ScrollInput
import ScrollModel

extension MonotonicClock {
    /// NIO schedules on the same clock (its deadlines are CLOCK_MONOTONIC uptime on Linux).
    static func deadline(_ time: Timestamp) -> NIODeadline {
        .uptimeNanoseconds(UInt64(max(0, time)) * 1000)
    }
}
