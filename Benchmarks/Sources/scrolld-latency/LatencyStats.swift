import Histogram

/// Percentiles of a set of latencies (recorded in ns, shown in µs).
struct LatencyStats {
    var histogram = Histogram<UInt64>(lowestDiscernibleValue: 100, highestTrackableValue: 120_000_000_000, numberOfSignificantValueDigits: .three)

    mutating func record(nanoseconds: UInt64) {
        _ = histogram.record(Swift.max(nanoseconds, 100))
    }

    var count: UInt64 { histogram.totalCount }

    func percentile(_ p: Double) -> Double { Double(histogram.valueAtPercentile(p)) / 1000 }
    var max: Double { Double(histogram.max) / 1000 }

    /// "p50 / p99 / p99.9 / max" in µs.
    var cells: [String] {
        guard count > 0 else { return ["–", "–", "–", "–"] }
        return [percentile(50), percentile(99), percentile(99.9), max].map { Self.format($0) }
    }

    static func format(_ microseconds: Double) -> String {
        if microseconds >= 10_000 { return "\(Int((microseconds / 1000).rounded())) ms" }
        if microseconds >= 1000 { return "\((microseconds / 100).rounded() / 10) ms" }
        if microseconds >= 100 { return "\(Int(microseconds.rounded())) µs" }
        return "\((microseconds * 10).rounded() / 10) µs"
    }
}

/// A Markdown table, printed as it will read in docs/performance-live.md.
struct Table {
    let header: [String]
    var rows: [[String]] = []

    init(_ header: String...) {
        self.header = header
    }

    mutating func add(_ cells: [String]) { rows.append(cells) }

    var markdown: String {
        var lines = ["| " + header.joined(separator: " | ") + " |", "|" + header.map { _ in "---" }.joined(separator: "|") + "|"]
        for row in rows { lines.append("| " + row.joined(separator: " | ") + " |") }
        return lines.joined(separator: "\n")
    }
}
