import ScrollJSON
import ScrollModel

/// Reads single transcript lines. Whitespace-tolerant: tokens are split on runs of spaces and
/// tabs, so spacing changed by a paste (tabs turned into spaces, a lost first column) still
/// reads; exact column widths only serve to name the layout.
struct DebugEventsLineParser {
    let bytes: UnsafeRawBufferPointer
    var position: Int
    var end: Int
    let lineNumber: Int
    /// Set by `header()` for a line of nothing but whitespace.
    private var isBlank = false

    private init(_ bytes: UnsafeRawBufferPointer, lineNumber: Int) {
        self.bytes = bytes
        self.position = 0
        self.end = bytes.count
        self.lineNumber = lineNumber
    }

    static func parse(_ line: UnsafeRawBufferPointer, lineNumber: Int) throws(DebugEventsLineFailure) -> DebugEventsRecord {
        var parser = DebugEventsLineParser(line, lineNumber: lineNumber)
        return try parser.parse()
    }

    /// The sysname and event type of an event line, or nil for any other line; used to tell a
    /// transcript from other files without reading the bodies.
    static func eventHeader(_ line: UnsafeRawBufferPointer) -> (sysname: String, type: String)? {
        var parser = DebugEventsLineParser(line, lineNumber: 0)
        guard let (sysname, type) = parser.header() else { return nil }
        return (parser.text(sysname), parser.text(type))
    }

    // MARK: Line structure

    private mutating func parse() throws(DebugEventsLineFailure) -> DebugEventsRecord {
        guard let (sysnameRange, typeRange) = header() else {
            return isBlank ? .blank : .text
        }
        let sysname = text(sysnameRange)
        let type = text(typeRange)
        switch type {
        case "DEVICE_ADDED":
            return .device(added: true, sysname: sysname, info: deviceBody())
        case "DEVICE_REMOVED":
            return .device(added: false, sysname: sysname, info: deviceBody())
        case "POINTER_AXIS":
            let time = try timeColumn(type: type).time
            let scroll = try scrollBody(type: type, eventType: .axis)
            let discrete = scroll.vertical.second != nil || scroll.horizontal.second != nil
            return .scroll(sysname: sysname, time: time, scroll: scroll, layout: discrete ? .axis : .legacyAxis)
        case "POINTER_SCROLL_WHEEL", "POINTER_SCROLL_FINGER", "POINTER_SCROLL_CONTINUOUS":
            let eventType: DebugEventsScrollLine.EventType =
                type == "POINTER_SCROLL_WHEEL" ? .wheel : type == "POINTER_SCROLL_FINGER" ? .finger : .continuous
            let (time, layout) = try timeColumn(type: type)
            return .scroll(sysname: sysname, time: time, scroll: try scrollBody(type: type, eventType: eventType), layout: layout)
        case "GESTURE_HOLD_BEGIN", "GESTURE_HOLD_END":
            let (time, layout) = try timeColumn(type: type)
            let (fingers, cancelled) = try holdBody(type: type, allowsCancelled: type == "GESTURE_HOLD_END")
            return .hold(sysname: sysname, time: time, begin: type == "GESTURE_HOLD_BEGIN", fingers: fingers, cancelled: cancelled, layout: layout)
        case "TOUCH_DOWN", "TOUCH_MOTION", "TOUCH_UP", "TOUCH_CANCEL":
            let time = try timeColumn(type: type).time
            return .touch(sysname: sysname, time: time, kind: try touchBody(type: type))
        default:
            return .otherEvent(type: type, time: try? timeColumn(type: type).time)
        }
    }

    /// `slot (seat_slot)`, then for a down or a motion `x/y (xmm/ymm mm)`: libinput prints x
    /// and y transformed to a 100 × 100 screen with `%5.2f`, so a value below 10 is padded
    /// (`" 5.00/ 7.50"`) and the pair may span two tokens.
    private mutating func touchBody(type: String) throws(DebugEventsLineFailure) -> ScrollEvent.Kind {
        guard let slotToken = token() else {
            throw error(.malformed(type: type, expected: "the slot", found: "end of line"))
        }
        guard isDigits(slotToken), slotToken.count <= 5, let slot = Int(text(slotToken)) else {
            throw error(.malformed(type: type, expected: "the slot", found: quoted(text(slotToken))))
        }
        // The seat slot, `(N)`, is the seat's numbering: not needed.
        if let seat = peekToken(), bytes[seat.lowerBound] == UInt8(ascii: "(") { _ = token() }
        switch type {
        case "TOUCH_UP": return .touchUp(slot: slot)
        case "TOUCH_CANCEL": return .touchCancel(slot: slot)
        default: break
        }
        skipSpaces()
        let start = position
        var slash: Int?
        var stop = position
        while stop < end, bytes[stop] != UInt8(ascii: "(") {
            if bytes[stop] == UInt8(ascii: "/"), slash == nil { slash = stop }
            stop += 1
        }
        func trimmed(_ range: Range<Int>) -> Range<Int> {
            var lower = range.lowerBound
            var upper = range.upperBound
            while lower < upper, Self.isSpace(bytes[lower]) { lower += 1 }
            while upper > lower, Self.isSpace(bytes[upper - 1]) { upper -= 1 }
            return lower..<upper
        }
        guard let slash else {
            position = stop
            throw error(.malformed(type: type, expected: "the position x/y", found: start < stop ? quoted(text(trimmed(start..<stop))) : "end of line"))
        }
        let xRange = trimmed(start..<slash)
        let yRange = trimmed(slash + 1..<stop)
        guard let x = Self.decimal(bytes, xRange), let y = Self.decimal(bytes, yRange),
              x >= -100, x <= 200, y >= -100, y <= 200 else {
            position = stop
            throw error(.malformed(type: type, expected: "the position x/y in percent of the screen", found: quoted(text(trimmed(start..<stop)))))
        }
        position = end
        let point = Point(x: x / 100, y: y / 100)
        return type == "TOUCH_DOWN" ? .touchDown(slot: slot, at: point) : .touchMotion(slot: slot, at: point)
    }

    /// Trims the line and reads `[-]sysname TYPE`, leaving the position after the type. Nil
    /// when the line is not an event line (the position is then at the end for a blank line).
    private mutating func header() -> (sysname: Range<Int>, type: Range<Int>)? {
        while end > position, Self.isSpace(bytes[end - 1]) { end -= 1 }
        skipDecorations()
        guard position < end else {
            isBlank = true
            return nil
        }
        // libinput ≥ 1.5 starts each line with '-' when the device differs from the previous
        // line's, else with a space; ≤ 1.4 and many pastes start with the sysname.
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        skipSpaces()
        guard let sysname = token(), let type = token(), isEventTypeName(type) else { return nil }
        return (sysname, type)
    }

    /// Skips leading whitespace, a byte order mark, and terminal escape sequences (libinput's
    /// `--compress-motion-events` starts repeated lines with ESC [1A; colours start some).
    private mutating func skipDecorations() {
        while position < end {
            let byte = bytes[position]
            if Self.isSpace(byte) {
                position += 1
            } else if byte == 0xEF, position + 2 < end, bytes[position + 1] == 0xBB, bytes[position + 2] == 0xBF {
                position += 3
            } else if byte == 0x1B {
                position += 1
                guard position < end else { return }
                if bytes[position] == UInt8(ascii: "[") {
                    position += 1
                    // Parameters and intermediates up to the final byte (0x40–0x7E).
                    while position < end, !(0x40...0x7E).contains(bytes[position]) { position += 1 }
                }
                if position < end { position += 1 }
            } else {
                return
            }
        }
    }

    /// An upper-case name with underscores, like every libinput event type.
    private func isEventTypeName(_ range: Range<Int>) -> Bool {
        guard range.count >= 3, bytes[range.lowerBound] != UInt8(ascii: "_"), bytes[range.upperBound - 1] != UInt8(ascii: "_") else {
            return false
        }
        var underscore = false
        for index in range {
            switch bytes[index] {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"): continue
            case UInt8(ascii: "_"): underscore = true
            default: return false
            }
        }
        return underscore && Self.isLetter(bytes[range.lowerBound])
    }

    /// `[count] time`: libinput ≥ 1.27 prints a repeat count (or four spaces) between the type
    /// and the time. The spacing around them names the layout of the ≥ 1.19 lines.
    private mutating func timeColumn(type: String) throws(DebugEventsLineFailure) -> (time: Timestamp, layout: DebugEventsLayout) {
        let typeLength = type.utf8.count
        let gap = skipSpaces()
        var count: Range<Int>?
        var countGap = (spaces: 0, onlySpaces: true)
        let save = position
        if let first = token(), isDigits(first) {
            let spaces = skipSpaces()
            if let next = peekToken(), Self.microseconds(bytes, next) != nil {
                count = first
                countGap = spaces
            } else {
                position = save
            }
        } else {
            position = save
        }
        guard let timeToken = token() else {
            throw error(.missingTime(type: type, found: "end of line"))
        }
        guard let time = Self.microseconds(bytes, timeToken) else {
            throw error(.missingTime(type: type, found: quoted(text(timeToken))))
        }
        return (time, Self.layout(typeLength: typeLength, gap: gap, countDigits: count.map(\.count), countGap: countGap))
    }

    /// The layout of a `POINTER_SCROLL_*` or `GESTURE_HOLD_*` line from the spacing between its
    /// type and its time: the type is printed `%-23s ` (padded to 23), then ≥ 1.27 prints
    /// `%3zd ` or four spaces, then ≥ 1.28 one more space.
    static func layout(typeLength: Int, gap: (spaces: Int, onlySpaces: Bool), countDigits: Int?, countGap: (spaces: Int, onlySpaces: Bool)) -> DebugEventsLayout {
        guard gap.onlySpaces, countGap.onlySpaces else { return .scrollUnaligned }
        let padded = max(23 - typeLength, 0) + 1
        if let digits = countDigits {
            guard gap.spaces == padded + max(3 - digits, 0) else { return .scrollUnaligned }
            switch countGap.spaces {
            case 1: return .scrollRepeatCount
            case 2: return .scrollRepeatCountWide
            default: return .scrollUnaligned
            }
        }
        switch gap.spaces {
        case padded: return .scroll
        case padded + 4: return .scrollRepeatCount
        case padded + 5: return .scrollRepeatCountWide
        default: return .scrollUnaligned
        }
    }

    // MARK: Bodies

    /// `vert V[/N][*] horiz V[/N][*] [(source)]`.
    private mutating func scrollBody(type: String, eventType: DebugEventsScrollLine.EventType) throws(DebugEventsLineFailure) -> DebugEventsScrollLine {
        let valueShape = eventType == .axis ? "a value like 15.00/1* or 15.00*" : "a value like 15.00/120.0*"
        try expectWord("vert", type: type)
        let vertical = try reading(type: type, expected: valueShape + " after \"vert\"")
        try expectWord("horiz", type: type)
        let horizontal = try reading(type: type, expected: valueShape + " after \"horiz\"")
        var source: DebugEventsScrollLine.Source?
        if let sourceToken = token() {
            guard sourceToken.count >= 2, bytes[sourceToken.lowerBound] == UInt8(ascii: "("),
                  bytes[sourceToken.upperBound - 1] == UInt8(ascii: ")")
            else {
                let opens = bytes[sourceToken.lowerBound] == UInt8(ascii: "(")
                throw error(
                    .malformed(type: type, expected: "the source in parentheses or the end of the line", found: quoted(text(sourceToken))),
                    truncatable: opens ? nil : false
                )
            }
            let name = text(sourceToken.lowerBound + 1..<sourceToken.upperBound - 1)
            switch (eventType, name) {
            case (.axis, "wheel"), (.wheel, "wheel"): source = .wheel
            case (.axis, "finger"), (.finger, "finger"): source = .finger
            case (.axis, "continuous"), (.continuous, "continuous"): source = .continuous
            case (.axis, "tilt"): source = .tilt
            default: throw error(.unexpectedSource(type: type, source: text(sourceToken)), truncatable: false)
            }
            if let extra = token() {
                throw error(.malformed(type: type, expected: "the end of the line after the source", found: quoted(text(extra))), truncatable: false)
            }
        }
        if eventType == .wheel {
            // v120 is what the event log needs from a wheel: a present axis must carry it.
            for (reading, name) in [(vertical, "vert"), (horizontal, "horiz")] where reading.marked && reading.second == nil {
                throw error(.malformed(type: type, expected: "value/v120 for the present \(name) axis", found: "no v120"), truncatable: false)
            }
        }
        return DebugEventsScrollLine(type: eventType, source: source, vertical: vertical, horizontal: horizontal)
    }

    /// `V[/N][*]`.
    private mutating func reading(type: String, expected: String) throws(DebugEventsLineFailure) -> DebugEventsScrollLine.Reading {
        guard let range = token() else { throw error(.malformed(type: type, expected: expected, found: "end of line")) }
        var upper = range.upperBound
        let marked = bytes[upper - 1] == UInt8(ascii: "*")
        if marked { upper -= 1 }
        var slash: Int?
        for index in range.lowerBound..<upper where bytes[index] == UInt8(ascii: "/") {
            slash = index
            break
        }
        let valueEnd = slash ?? upper
        guard let value = Self.decimal(bytes, range.lowerBound..<valueEnd) else {
            throw error(.malformed(type: type, expected: expected, found: quoted(text(range))))
        }
        var second: Double?
        if let slash {
            guard let number = Self.decimal(bytes, slash + 1..<upper) else {
                throw error(.malformed(type: type, expected: expected, found: quoted(text(range))))
            }
            second = number
        }
        return DebugEventsScrollLine.Reading(value: value, second: second, marked: marked)
    }

    /// `fingers[ cancelled]`.
    private mutating func holdBody(type: String, allowsCancelled: Bool) throws(DebugEventsLineFailure) -> (fingers: Int, cancelled: Bool) {
        guard let count = token() else {
            throw error(.malformed(type: type, expected: "the finger count", found: "end of line"))
        }
        guard isDigits(count), count.count <= 9, let fingers = Int(text(count)) else {
            throw error(.malformed(type: type, expected: "the finger count", found: quoted(text(count))))
        }
        var cancelled = false
        if let word = token() {
            guard allowsCancelled, text(word) == "cancelled" else {
                let expected = allowsCancelled ? "\"cancelled\" or the end of the line" : "the end of the line"
                throw error(.malformed(type: type, expected: expected, found: quoted(text(word))))
            }
            cancelled = true
            if let extra = token() {
                throw error(.malformed(type: type, expected: "the end of the line", found: quoted(text(extra))), truncatable: false)
            }
        }
        return (fingers, cancelled)
    }

    /// The device fields, read from the right: the last `cap:` preceded by `groupN`, the
    /// logical and the physical seat; the name is what stands before them. A line that does not
    /// have this shape gives its whole text as the name and no capabilities.
    private mutating func deviceBody() -> DebugEventsDeviceLine {
        skipSpaces()
        let start = position
        var info = DebugEventsDeviceLine()
        guard start < end else { return info }
        var capField: Int?
        var index = end - 4
        while index >= start {
            if bytes[index] == UInt8(ascii: "c"), bytes[index + 1] == UInt8(ascii: "a"), bytes[index + 2] == UInt8(ascii: "p"),
               bytes[index + 3] == UInt8(ascii: ":"), index == start || Self.isSpace(bytes[index - 1]) {
                capField = index
                break
            }
            index -= 1
        }
        guard let capField else {
            info.name = text(start..<end)
            return info
        }
        // Capability letters, then options.
        position = capField + 4
        var lettersEnd = position
        while lettersEnd < end, !Self.isSpace(bytes[lettersEnd]) { lettersEnd += 1 }
        info.capabilityLetters = Array(UnsafeRawBufferPointer(rebasing: bytes[position..<lettersEnd]))
        position = lettersEnd
        while let option = token() {
            let word = text(option)
            guard word.hasPrefix("scroll-"), word != "scroll-nat" else { continue }
            for method in word.split(separator: "-").dropFirst() {
                if method == "2fg" || method == "edge" { info.touchpadScrolling = true }
                if method == "button" { info.buttonScrolling = true }
            }
        }
        // Before `cap:`: `groupN`, the logical seat, the physical seat, then the name.
        var cursor = capField
        func previousToken() -> Range<Int>? {
            while cursor > start, Self.isSpace(bytes[cursor - 1]) { cursor -= 1 }
            guard cursor > start else { return nil }
            let upper = cursor
            while cursor > start, !Self.isSpace(bytes[cursor - 1]) { cursor -= 1 }
            return cursor..<upper
        }
        var nameEnd = capField
        if let group = previousToken(), text(group).hasPrefix("group"), isDigits(group.lowerBound + 5..<group.upperBound),
           previousToken() != nil, previousToken() != nil {
            nameEnd = cursor
        }
        while nameEnd > start, Self.isSpace(bytes[nameEnd - 1]) { nameEnd -= 1 }
        if nameEnd > start { info.name = text(start..<nameEnd) }
        return info
    }

    private mutating func expectWord(_ word: String, type: String) throws(DebugEventsLineFailure) {
        guard let range = token() else {
            throw error(.malformed(type: type, expected: "\"\(word)\"", found: "end of line"))
        }
        guard text(range) == word else {
            throw error(.malformed(type: type, expected: "\"\(word)\"", found: quoted(text(range))))
        }
    }
}
