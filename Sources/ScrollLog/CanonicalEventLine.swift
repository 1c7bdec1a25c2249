import ScrollJSON
import ScrollModel

/// The fast path for an event line in exactly the form `EventLogWriter` writes — and so
/// `scrolld record` and the generators: `{"t":…,"dev":…,"type":"wheel","v120":{…},"deg":{…}}`
/// with keys in that order and no spaces. Such a line is matched byte by byte in one pass,
/// its numbers read by the same scanner routine the general reader uses, so it yields the very
/// event the general reader would (the scanner's number reading also steps over spaces before a
/// number, harmlessly). Any other form — other key orders, spaces elsewhere, nulls, extra or
/// repeated keys, errors — returns nil and goes to the general two-pass reader (`EventLine`),
/// which is what reports problems.
///
/// It exists because replaying a recording is bound by reading it: the general reader
/// validates and locates every key before interpreting any (about 7 000 instructions for a
/// wheel line), this one does the common lines in a fraction of that.
struct CanonicalEventLine {
    private var scanner: JSONScanner

    static func parse(_ line: UnsafeRawBufferPointer) -> ScrollEvent? {
        var reader = CanonicalEventLine(scanner: JSONScanner(line))
        return reader.event()
    }

    private init(scanner: JSONScanner) {
        self.scanner = scanner
    }

    private mutating func event() -> ScrollEvent? {
        guard literal("{\"t\":"), let time = integer(), time.magnitude <= EventLine.timeLimit.magnitude,
              literal(",\"dev\":"), let dev = integer(), let device = Int(exactly: dev),
              literal(",\"type\":\"")
        else { return nil }
        let kind: ScrollEvent.Kind
        if literal("wheel\",\"v120\":") {
            guard let v120 = axes() else { return nil }
            var degrees: AxisValues?
            if literal(",\"deg\":") {
                guard let deg = axes() else { return nil }
                degrees = deg
            }
            kind = .wheel(v120: v120, degrees: degrees)
        } else if literal("finger\",\"delta\":") {
            guard let delta = axes() else { return nil }
            kind = .finger(delta)
        } else if literal("continuous\",\"delta\":") {
            guard let delta = axes() else { return nil }
            kind = .continuous(delta)
        } else if literal("device_removed\"") {
            kind = .deviceRemoved
        } else if literal("hold_begin\",\"fingers\":") {
            guard let fingers = integer().flatMap({ Int(exactly: $0) }) else { return nil }
            kind = .holdBegin(fingers: fingers)
        } else if literal("hold_end\",\"fingers\":") {
            guard let fingers = integer().flatMap({ Int(exactly: $0) }) else { return nil }
            let cancelled: Bool
            if literal(",\"cancelled\":true") {
                cancelled = true
            } else if literal(",\"cancelled\":false") {
                cancelled = false
            } else {
                return nil
            }
            kind = .holdEnd(fingers: fingers, cancelled: cancelled)
        } else {
            return nil
        }
        guard literal("}"), scanner.cursor == scanner.bytes.count else { return nil }
        return ScrollEvent(time: time, device: device, kind: kind)
    }

    /// `{}`, `{"x":n}`, `{"y":n}` or `{"x":n,"y":n}`, with finite numbers.
    private mutating func axes() -> AxisValues? {
        guard literal("{") else { return nil }
        var axes = AxisValues()
        if literal("\"x\":") {
            guard let x = double() else { return nil }
            axes.x = x
            if literal(",\"y\":") {
                guard let y = double() else { return nil }
                axes.y = y
            }
        } else if literal("\"y\":") {
            guard let y = double() else { return nil }
            axes.y = y
        }
        return literal("}") ? axes : nil
    }

    private mutating func integer() -> Int64? {
        guard let number = try? scanner.readNumber() else { return nil }
        return number.integer
    }

    private mutating func double() -> Double? {
        guard let number = try? scanner.readNumber(), number.double.isFinite else { return nil }
        return number.double
    }

    /// Consumes `text` when the line continues with exactly it.
    @inline(__always)
    private mutating func literal(_ text: StaticString) -> Bool {
        let count = text.utf8CodeUnitCount
        guard scanner.bytes.count - scanner.cursor >= count, let base = scanner.bytes.baseAddress else { return false }
        let line = base + scanner.cursor
        let expected = text.utf8Start
        for i in 0..<count where line.load(fromByteOffset: i, as: UInt8.self) != expected[i] {
            return false
        }
        scanner.cursor += count
        return true
    }
}
