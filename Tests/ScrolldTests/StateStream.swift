import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The head of a state line, read without a JSON parser (a thousand clients' streams are too
/// many lines for JSONSerialization): `{"type":"state"[,"id":…],"container":…,"seq":N,"t":T,"phase":"P",…`.
struct StateHead {
    var seq: Int
    var t: Int64
    /// The phase's first letter: i(nteracting), t(racking), d(ecelerating), a(nimating) — and
    /// I for idle.
    var phase: UInt8
    var isReply: Bool

    static let prefix = Array(#"{"type":"state""#.utf8)
    static let seqKey = Array(#""seq":"#.utf8)
    static let tKey = Array(#","t":"#.utf8)
    static let phaseKey = Array(#","phase":""#.utf8)
    static let idKey = Array(#","id":"#.utf8)

    /// nil for any other line (welcome, ok, error, …).
    static func parse(_ line: UnsafeRawBufferPointer) -> StateHead? {
        guard line.count > 64, line.starts(with: prefix) else { return nil }
        let head = UnsafeRawBufferPointer(rebasing: line[0..<min(line.count, 160)])
        guard let seqAt = find(seqKey, in: head, from: prefix.count) else { return nil }
        var i = seqAt + seqKey.count
        var seq = 0
        while i < head.count, head[i] >= 48, head[i] <= 57 { seq = seq * 10 + Int(head[i] - 48); i += 1 }
        guard head[i...].starts(with: tKey) else { return nil }
        i += tKey.count
        var t: Int64 = 0
        while i < head.count, head[i] >= 48, head[i] <= 57 { t = t * 10 + Int64(head[i] - 48); i += 1 }
        guard head[i...].starts(with: phaseKey), i + phaseKey.count < head.count else { return nil }
        var phase = head[i + phaseKey.count]
        if phase == UInt8(ascii: "i"), i + phaseKey.count + 1 < head.count, head[i + phaseKey.count + 1] == UInt8(ascii: "d") {
            phase = UInt8(ascii: "I")
        }
        let isReply = head[prefix.count...].starts(with: idKey)
        return StateHead(seq: seq, t: t, phase: phase, isReply: isReply)
    }

    static func find(_ needle: [UInt8], in haystack: UnsafeRawBufferPointer, from start: Int) -> Int? {
        var i = start
        while i + needle.count <= haystack.count {
            if haystack[i] == needle[0], haystack[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }
}

/// One subscriber's stream, checked as it arrives: order, gaps, the idle states' full lines,
/// and how late each state arrived after its own `t`.
struct StreamCheck {
    let fd: Int32
    let rate: Double?
    var partial: [UInt8] = []
    var subscribedSeq: Int?
    var states = 0
    var lastSeq = Int.min
    var lastBroadcastT = Int64.min
    /// Descriptions of any state that came out of order (an older seq, or an earlier `t`).
    var disorder: [String] = []
    /// Broadcast seq jumps (from, to) with to > from + 1: coalesced states.
    var gaps: [(Int, Int)] = []
    var idleLines: [Int: [UInt8]] = [:]
    /// Every broadcast's seq and delivery latency (arrival on CLOCK_MONOTONIC minus the
    /// state's `t`, in µs).
    var arrivals: [(seq: Int32, latency: Int32)] = []
    /// (seq, t, phase) of every broadcast, kept for the clients asked to.
    var record: [(seq: Int, t: Int64, phase: UInt8)]?
    var eof = false

    init(fd: Int32, rate: Double?, keepsRecord: Bool) {
        self.fd = fd
        self.rate = rate
        record = keepsRecord ? [] : nil
    }

    mutating func consume(_ bytes: UnsafeRawBufferPointer, arrival: Int64) {
        if partial.isEmpty {
            let used = lines(in: bytes, arrival: arrival)
            partial.append(contentsOf: bytes[used...])
        } else {
            partial.append(contentsOf: bytes)
            let buffer = partial
            let used = buffer.withUnsafeBytes { lines(in: $0, arrival: arrival) }
            partial.removeFirst(used)
        }
    }

    /// Handles the whole lines in `bytes`; returns how many bytes they took.
    private mutating func lines(in bytes: UnsafeRawBufferPointer, arrival: Int64) -> Int {
        var start = 0
        while start < bytes.count, let newline = memchr(bytes.baseAddress! + start, 0x0A, bytes.count - start) {
            let end = bytes.baseAddress!.distance(to: UnsafeRawPointer(newline))
            line(UnsafeRawBufferPointer(rebasing: bytes[start..<end]), arrival: arrival)
            start = end + 1
        }
        return start
    }

    private mutating func line(_ line: UnsafeRawBufferPointer, arrival: Int64) {
        guard let head = StateHead.parse(line) else { return }
        states += 1
        if head.seq <= lastSeq { disorder.append("seq \(head.seq) after \(lastSeq)") }
        if head.isReply {
            if subscribedSeq == nil { subscribedSeq = head.seq }
        } else {
            if head.t < lastBroadcastT { disorder.append("t \(head.t) after \(lastBroadcastT) (seq \(head.seq))") }
            if lastSeq != Int.min, head.seq > lastSeq + 1 { gaps.append((lastSeq, head.seq)) }
            lastBroadcastT = max(lastBroadcastT, head.t)
            arrivals.append((Int32(truncatingIfNeeded: head.seq), Int32(clamping: arrival - head.t)))
        }
        lastSeq = max(lastSeq, head.seq)
        if head.phase == UInt8(ascii: "I") { idleLines[head.seq] = Array(line) }
        if !head.isReply { record?.append((head.seq, head.t, head.phase)) }
    }

    /// How many broadcast seqs in `range` never arrived (coalesced away).
    func missed(in range: ClosedRange<Int>) -> Int {
        gaps.reduce(0) { total, gap in
            let lower = max(gap.0 + 1, range.lowerBound), upper = min(gap.1 - 1, range.upperBound)
            return total + max(0, upper - lower + 1)
        }
    }

    /// The latencies of the states in `range`, in µs.
    func latencies(in range: ClosedRange<Int>) -> [Int32] {
        arrivals.filter { range.contains(Int($0.seq)) }.map(\.latency)
    }
}

/// Percentiles of delivery latencies, in milliseconds.
struct LatencySummary: CustomStringConvertible {
    var count = 0
    var p50 = 0.0, p99 = 0.0, max = 0.0

    init(_ micros: [Int32]) {
        let sorted = micros.sorted()
        count = sorted.count
        guard count > 0 else { return }
        func percentile(_ p: Double) -> Double { Double(sorted[min(count - 1, Int(Double(count) * p))]) / 1000 }
        p50 = percentile(0.5)
        p99 = percentile(0.99)
        max = Double(sorted[count - 1]) / 1000
    }

    var description: String {
        String(format: "%d states: p50 %.1f ms, p99 %.1f ms, max %.1f ms", count, p50, p99, max)
    }
}
