/// Reduces a series to at most four points per pixel column (first, lowest, highest, last;
/// see `EnvelopeBucket`), so a plot of a log of any length stays small and still shows every
/// peak.
public enum Decimation {
    /// The points of `points` (in time order) that a `columns`-pixel-wide drawing of the time
    /// range `domain` needs. Points outside the range fall into the first or last column;
    /// points with a non-finite value are dropped.
    public static func decimate(_ points: [PlotPoint], columns: Int, domain: ClosedRange<Double>) -> [PlotPoint] {
        let columns = max(1, columns)
        let span = domain.upperBound - domain.lowerBound
        let scale = span > 0 ? Double(columns) / span : 0
        var result: [PlotPoint] = []
        var bucket: EnvelopeBucket?
        for (sequence, point) in points.enumerated() where point.v.isFinite {
            let column = Int64(min(max(((point.t - domain.lowerBound) * scale).rounded(.down), 0), Double(columns - 1)))
            let entry = EnvelopeBucket.Entry(sequence: sequence, point: point)
            if bucket?.key == column {
                bucket!.add(entry)
            } else {
                if let bucket { result.append(contentsOf: bucket.entries.map(\.point)) }
                bucket = EnvelopeBucket(key: column, entry)
            }
        }
        if let bucket { result.append(contentsOf: bucket.entries.map(\.point)) }
        return result
    }
}
