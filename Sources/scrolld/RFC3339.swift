import Foundation

/// Timestamps for event log headers (`created`).
enum RFC3339 {
    /// Now as RFC 3339 in UTC, to the second: `2026-11-22T12:00:00Z`.
    static func now() -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date())
    }
}
