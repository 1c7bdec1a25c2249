/// The four points of a run of consecutive points that a line drawing of the run depends on:
/// the first, the last, the lowest and the highest (the "M4" reduction). Drawing these four in
/// time order inside one pixel column covers the same pixels as drawing them all, so peaks
/// survive any amount of decimation. Buckets of neighbouring runs merge exactly.
struct EnvelopeBucket {
    /// A point and its position in the whole series, which orders points at equal times.
    struct Entry {
        var sequence: Int
        var point: PlotPoint
    }

    var key: Int64
    var first: Entry
    var last: Entry
    var lowest: Entry
    var highest: Entry

    init(key: Int64, _ entry: Entry) {
        self.key = key
        first = entry
        last = entry
        lowest = entry
        highest = entry
    }

    /// Adds a point that comes after every point already in the bucket. Ties keep the earlier
    /// extreme.
    mutating func add(_ entry: Entry) {
        last = entry
        if entry.point.v < lowest.point.v { lowest = entry }
        if entry.point.v > highest.point.v { highest = entry }
    }

    /// Appends the bucket of the run that directly follows this one.
    mutating func merge(_ next: EnvelopeBucket) {
        last = next.last
        if next.lowest.point.v < lowest.point.v { lowest = next.lowest }
        if next.highest.point.v > highest.point.v { highest = next.highest }
    }

    /// The distinct kept entries in series order (one to four).
    var entries: [Entry] {
        var result = [first]
        for entry in [lowest, highest, last].sorted(by: { $0.sequence < $1.sequence })
        where entry.sequence != result.last!.sequence {
            result.append(entry)
        }
        return result
    }
}
