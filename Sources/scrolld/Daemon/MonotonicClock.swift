import NIOCore
#if canImport(Glibc)
import Glibc
#endif

/// The engine's clock in a live daemon: CLOCK_MONOTONIC in µs, the clock libinput stamps its
/// events with, so input and frames share one timeline.
enum MonotonicClock {
    static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Timestamp(ts.tv_sec) * 1_000_000 + Timestamp(ts.tv_nsec) / 1000
    }

    /// NIO schedules on the same clock (its deadlines are CLOCK_MONOTONIC uptime on Linux).
    static func deadline(_ time: Timestamp) -> NIODeadline {
        .uptimeNanoseconds(UInt64(max(0, time)) * 1000)
    }
}

import ScrollModel
