import FoundationEssentials

/// Timestamps for event log headers (`created`).
enum RFC3339 {
    /// Now as RFC 3339 in UTC, to the second: `2026-11-22T12:00:00Z` (FoundationEssentials'
    /// ISO 8601 style, whose defaults are exactly that profile).
    static func now() -> String {
        Date.now.formatted(Date.ISO8601FormatStyle())
    }
}
