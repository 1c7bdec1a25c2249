/// The few fields of a published state line the harness needs, read straight from the bytes
/// (a JSON decoder per line would make the harness slower than the daemon it measures).
struct StateLine {
    enum Phase: UInt8, CaseIterable {
        case idle, tracking, interacting, decelerating, animating, unknown

        init(_ name: UnsafeBufferPointer<UInt8>) {
            switch name.first {
            case UInt8(ascii: "i"): self = name.count == 4 ? .idle : .interacting
            case UInt8(ascii: "t"): self = .tracking
            case UInt8(ascii: "d"): self = .decelerating
            case UInt8(ascii: "a"): self = .animating
            default: self = .unknown
            }
        }

        /// Frame states between inputs (docs/design.md §6) in a fling or an animation.
        var isMotion: Bool { self == .decelerating || self == .animating }
    }

    var seq: UInt32
    /// The state's time: µs on CLOCK_MONOTONIC.
    var t: Int64
    var phase: Phase

    /// Parses a line without its newline; nil for anything but a published state (replies to a
    /// request carry `"id"` and are not publishes).
    init?(_ line: UnsafeBufferPointer<UInt8>) {
        guard Self.find(#""type":"state""#, in: line) != nil, Self.find(#""id":"#, in: line) == nil,
              let seq = Self.integer(after: #""seq":"#, in: line),
              let t = Self.integer(after: #""t":"#, in: line),
              let phaseStart = Self.find(#""phase":""#, in: line) else { return nil }
        var end = phaseStart
        while end < line.count, line[end] != UInt8(ascii: "\"") { end += 1 }
        self.seq = UInt32(truncatingIfNeeded: seq)
        self.t = t
        phase = Phase(UnsafeBufferPointer(rebasing: line[phaseStart..<end]))
    }

    /// The index just after the first occurrence of `needle`.
    static func find(_ needle: StaticString, in line: UnsafeBufferPointer<UInt8>) -> Int? {
        let n = needle.utf8CodeUnitCount
        let pattern = UnsafeBufferPointer(start: needle.utf8Start, count: n)
        guard line.count >= n else { return nil }
        var i = 0
        while i <= line.count - n {
            if line[i] == pattern[0] {
                var j = 1
                while j < n, line[i + j] == pattern[j] { j += 1 }
                if j == n { return i + n }
            }
            i += 1
        }
        return nil
    }

    static func integer(after key: StaticString, in line: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard var i = find(key, in: line) else { return nil }
        var value: Int64 = 0
        var digits = 0
        while i < line.count, line[i] >= UInt8(ascii: "0"), line[i] <= UInt8(ascii: "9") {
            value = value * 10 + Int64(line[i] - UInt8(ascii: "0"))
            i += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    static func signedInteger(after key: StaticString, in line: UnsafeBufferPointer<UInt8>) -> Int64? {
        guard let i = find(key, in: line), i < line.count else { return nil }
        guard line[i] == UInt8(ascii: "-") else { return integer(after: key, in: line) }
        var value: Int64 = 0
        var j = i + 1
        while j < line.count, line[j] >= UInt8(ascii: "0"), line[j] <= UInt8(ascii: "9") {
            value = value * 10 + Int64(line[j] - UInt8(ascii: "0"))
            j += 1
        }
        return j > i + 1 ? -value : nil
    }
}
