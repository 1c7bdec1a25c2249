#if canImport(Glibc)
import Glibc
#endif

/// CLOCK_MONOTONIC, the clock scrolld stamps states with (µs) and the one arrivals are read on
/// (ns), so `arrival − t` needs no conversion between clocks.
enum Clock {
    static func nanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    static func microseconds() -> Int64 { nanoseconds() / 1000 }

    /// Sleeps until an absolute monotonic time (ns); returns at once if it has passed.
    static func sleep(untilNanoseconds deadline: Int64) {
        var ts = timespec(tv_sec: Int(deadline / 1_000_000_000), tv_nsec: Int(deadline % 1_000_000_000))
        while clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, nil) == EINTR {}
    }

    static func sleep(seconds: Double) {
        sleep(untilNanoseconds: nanoseconds() + Int64(seconds * 1e9))
    }
}
