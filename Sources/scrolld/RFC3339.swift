#if canImport(Glibc)
import Glibc
#endif

/// Timestamps for event log headers (`created`).
enum RFC3339 {
    /// Now as RFC 3339 in UTC, to the second: `2026-11-22T12:00:00Z`.
    static func now() -> String {
        format(secondsSinceEpoch: time(nil))
    }

    static func format(secondsSinceEpoch seconds: time_t) -> String {
        var clock = seconds
        var utc = tm()
        gmtime_r(&clock, &utc)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let year = String(utc.tm_year + 1900)
        return "\(year)-\(two(utc.tm_mon + 1))-\(two(utc.tm_mday))T\(two(utc.tm_hour)):\(two(utc.tm_min)):\(two(utc.tm_sec))Z"
    }
}
