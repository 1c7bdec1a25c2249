import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The head of a state line, read without a JSON parser (a thousand clients' streams are too
/// many lines for JSONSerialization, and the test is a debug build): `{"type":"state"[,"id":…],
/// "container":…,"seq":N,"t":T,"phase":"P",…`. Only libc's memchr/memcmp and a digit loop run
/// per line.
struct StateHead {
    var seq: Int
    var t: Int64
    /// The phase's first letter: i(nteracting), t(racking), d(ecelerating), a(nimating) — and
    /// I for idle.
    var phase: UInt8
    var isReply: Bool

    private static let prefix = Array(#"{"type":"state""#.utf8)
    private static let seqKey = Array(#","seq":"#.utf8)
    private static let tKey = Array(#","t":"#.utf8)
    private static let phaseKey = Array(#","phase":""#.utf8)
    private static let idKey = Array(#","id":"#.utf8)

    /// nil for any other line (welcome, ok, error, …).
    static func parse(_ line: UnsafeRawBufferPointer) -> StateHead? {
        guard line.count > 64, let base = line.baseAddress?.assumingMemoryBound(to: UInt8.self),
              prefix.withUnsafeBytes({ memcmp(base, $0.baseAddress!, $0.count) }) == 0 else { return nil }
        let end = min(line.count, 160)
        // The key follows a comma; there are two or three commas before it.
        var i = prefix.count
        while true {
            guard let comma = memchr(base + i, 0x2C, end - i) else { return nil }
            i = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(comma))
            if i + seqKey.count < end, seqKey.withUnsafeBytes({ memcmp(base + i, $0.baseAddress!, $0.count) }) == 0 { break }
            i += 1
        }
        i += seqKey.count
        func number() -> Int64 {
            var value: Int64 = 0
            while i < end, base[i] >= 48, base[i] <= 57 { value = value * 10 + Int64(base[i] - 48); i += 1 }
            return value
        }
        func skip(_ key: [UInt8]) -> Bool {
            guard i + key.count < end, key.withUnsafeBytes({ memcmp(base + i, $0.baseAddress!, $0.count) }) == 0 else { return false }
            i += key.count
            return true
        }
        let seq = Int(number())
        guard skip(tKey) else { return nil }
        let t = number()
        guard skip(phaseKey), i + 1 < end else { return nil }
        let phase = base[i] == UInt8(ascii: "i") && base[i + 1] == UInt8(ascii: "d") ? UInt8(ascii: "I") : base[i]
        let isReply = idKey.withUnsafeBytes { memcmp(base + prefix.count, $0.baseAddress!, $0.count) } == 0
        return StateHead(seq: seq, t: t, phase: phase, isReply: isReply)
    }
}

/// One subscriber's stream, checked as it arrives: order, the idle states' full lines, every
/// broadcast's seq and `t`, and for every read that brought states the interval in which its
/// bytes reached the socket (see SubscriberReaders).
struct StreamCheck {
    /// A read(2) that completed at least one broadcast line. Its bytes were written into the
    /// socket after `lower` and before `arrival` (µs, CLOCK_MONOTONIC); `end` is how many
    /// broadcasts had been received once it was handled (an index into `seqs`/`times`).
    struct Read {
        var lower: Int64
        var arrival: Int64
        var end: Int32
    }

    let fd: Int32
    let rate: Double?
    var subscribedSeq: Int?
    var lastSeq = Int.min
    var lastBroadcastT = Int64.min
    /// Descriptions of any state that came out of order (an older seq, or an earlier `t`).
    var disorder: [String] = []
    var idleLines: [Int: [UInt8]] = [:]
    /// Every broadcast's seq and `t`, in arrival order.
    var seqs: [Int32] = []
    var times: [Int64] = []
    var reads: [Read] = []
    var eof = false
    /// The most bytes one read returned: what was waiting in the socket, as the reader's
    /// buffer takes all of it (compared with LineClient.neverFullBelow).
    var mostQueued = 0
    /// Whether its reader once stayed away longer than `StreamCheck.promptRead` and then found
    /// at least LineClient.neverFullBelow bytes waiting: the socket may have filled because of
    /// the reader, and the daemon then waits and coalesces (latest wins), so what this stream
    /// held late is not the daemon's doing alone. As many bytes read promptly are a burst the
    /// daemon sent (after a stall of its own, say): that stream stays judged.
    var fellBehind = false
    /// How long a reader may take to come back to a ready socket and still count as reading
    /// "as states come": one frame at 120 Hz.
    static let promptRead: Int64 = 8_334

    init(fd: Int32, rate: Double?) {
        self.fd = fd
        self.rate = rate
        seqs.reserveCapacity(rate == nil ? 8192 : 2048)
        times.reserveCapacity(rate == nil ? 8192 : 2048)
        reads.reserveCapacity(rate == nil ? 8192 : 2048)
    }

    mutating func line(_ line: UnsafeRawBufferPointer) {
        guard let head = StateHead.parse(line) else { return }
        if head.seq <= lastSeq { disorder.append("seq \(head.seq) after \(lastSeq)") }
        if head.isReply {
            if subscribedSeq == nil { subscribedSeq = head.seq }
        } else {
            if head.t < lastBroadcastT { disorder.append("t \(head.t) after \(lastBroadcastT) (seq \(head.seq))") }
            lastBroadcastT = max(lastBroadcastT, head.t)
            seqs.append(Int32(truncatingIfNeeded: head.seq))
            times.append(head.t)
        }
        lastSeq = max(lastSeq, head.seq)
        if head.phase == UInt8(ascii: "I") { idleLines[head.seq] = Array(line) }
    }

    /// Called after each read of `bytes`: records it if it completed broadcasts.
    mutating func read(lower: Int64, arrival: Int64, bytes: Int) {
        mostQueued = max(mostQueued, bytes)
        if bytes >= LineClient.neverFullBelow, arrival - lower > Self.promptRead { fellBehind = true }
        let end = Int32(seqs.count)
        if end > (reads.last?.end ?? 0) { reads.append(Read(lower: lower, arrival: arrival, end: end)) }
    }

    /// The broadcasts received with a seq in `range`: their indices in `seqs`/`times`.
    func indices(in range: ClosedRange<Int>) -> Range<Int> {
        let from = seqs.firstIndex { Int($0) >= range.lowerBound } ?? seqs.count
        let to = seqs[from...].firstIndex { Int($0) > range.upperBound } ?? seqs.count
        return from..<to
    }

    /// When the read that brought the last broadcast with a seq in `range` returned (µs,
    /// CLOCK_MONOTONIC): the daemon sent it before then.
    func arrivalOfLast(in range: ClosedRange<Int>) -> Int64? {
        let received = indices(in: range)
        guard !received.isEmpty else { return nil }
        return reads.first { Int($0.end) >= received.upperBound }?.arrival
    }

    /// How many seqs in `range` this subscriber never received (coalesced away).
    func missed(in range: ClosedRange<Int>) -> Int {
        range.count - indices(in: range).count
    }
}

/// Percentiles of durations given in µs, printed in milliseconds.
struct LatencySummary: CustomStringConvertible {
    var count = 0
    var p50 = 0.0, p99 = 0.0, max = 0.0

    init<C: Collection>(_ micros: C) where C.Element: BinaryInteger {
        let sorted = micros.map { Int64($0) }.sorted()
        count = sorted.count
        guard count > 0 else { return }
        func percentile(_ p: Double) -> Double { Double(sorted[min(count - 1, Int(Double(count) * p))]) / 1000 }
        p50 = percentile(0.5)
        p99 = percentile(0.99)
        max = Double(sorted[count - 1]) / 1000
    }

    var description: String {
        String(format: "p50 %.2f ms, p99 %.2f ms, max %.2f ms (%d)", p50, p99, max, count)
    }
}
