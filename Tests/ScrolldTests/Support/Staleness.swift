/// How stale a subscriber's view of a container got during a pass (docs/security.md,
/// "Overload"): for every state E the engine computes in the pass, at its time `t_E`, the first
/// moment the subscriber holds E or a newer state (a state with `t ≥ t_E`: states arrive in
/// order), minus `t_E`.
///
/// That moment is known within a read's interval (StreamCheck.Read): `upper` uses the moment
/// the read returned (it includes this test's own reading delay), `lower` the earliest moment
/// the bytes can have entered the socket (what the daemon did, at best). A daemon that is late
/// has a large `lower`; a reader that is late only widens the gap between the two.
struct Staleness {
    /// Per expected state, µs; Int32.max for a state never reached.
    var upper: [Int32] = []
    var lower: [Int32] = []
    /// Expected states that no received state ever reached (a lost final state).
    var unreached = 0

    /// `expected`: the pass' state times in order (what `scrolld replay` of the same log
    /// computes, moved to the pass' live times).
    init(of stream: StreamCheck, expected: [Int64]) {
        upper.reserveCapacity(expected.count)
        lower.reserveCapacity(expected.count)
        var j = 0
        for read in stream.reads {
            let newest = stream.times[Int(read.end) - 1]
            while j < expected.count, expected[j] <= newest {
                upper.append(Int32(clamping: read.arrival - expected[j]))
                lower.append(Int32(clamping: max(0, read.lower - expected[j])))
                j += 1
            }
        }
        unreached = expected.count - j
    }
}

/// Staleness of a class of subscribers, and the figures printed for it.
struct StalenessFigures: CustomStringConvertible {
    let name: String
    /// The promised bound, µs.
    let bound: Int64
    var subscribers = 0
    /// Subscribers of the class that let states pile up in their socket (LineClient's
    /// `neverFullBelow` or more waiting at once): not healthy (docs/security.md: a healthy
    /// subscriber reads its socket as states come), so not judged — whatever they held late
    /// may be their own doing, the daemon coalescing for a socket that filled.
    var fellBehind = 0
    var upper: [Int32] = []
    var lower: [Int32] = []
    var unreached = 0
    /// Subscribers with a state whose `lower` exceeds the bound: the daemon was certainly late.
    var late: [(client: Int, state: Int, lower: Int32)] = []
    /// States whose `upper` exceeds the bound: late by this reader's clock, perhaps its own fault.
    var overBoundUpper = 0

    /// Subscribers with `rate` (nil: every state): one frame, plus 1/rate.
    init(rate: Double?, frame: Int64) {
        name = rate.map { "rate \(Int($0)) Hz" } ?? "unthrottled"
        bound = frame + (rate.map { Int64((1e6 / $0).rounded(.up)) } ?? 0)
    }

    mutating func add(_ staleness: Staleness, client: Int) {
        subscribers += 1
        upper += staleness.upper
        lower += staleness.lower
        unreached += staleness.unreached
        if let worst = staleness.lower.indices.max(by: { staleness.lower[$0] < staleness.lower[$1] }), Int64(staleness.lower[worst]) > bound {
            late.append((client, worst, staleness.lower[worst]))
        }
        let bound = bound
        overBoundUpper += staleness.upper.filter { Int64($0) > bound }.count
    }

    var description: String {
        let heading = "\(name) (\(subscribers), bound \(String(format: "%.2f", Double(bound) / 1000)) ms)"
        guard subscribers > 0 else { return "\(heading): none judged; \(fellBehind) fell behind their socket, not judged" }
        return """
        \(heading): staleness as read \(LatencySummary(upper)); \
        at the socket (lower bound) \(LatencySummary(lower)); over the bound: \(overBoundUpper) as read, \
        \(late.count) subscribers at the socket\(unreached > 0 ? "; \(unreached) states never reached" : ""); \(fellBehind) fell behind their socket, not judged
        """
    }
}
