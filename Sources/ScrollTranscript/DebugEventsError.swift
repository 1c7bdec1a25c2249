import ScrollJSON

/// A transcript line that names a scroll event (`POINTER_AXIS`, `POINTER_SCROLL_*`,
/// `GESTURE_HOLD_*`) but cannot be read as one; `description` is the one-line message for
/// users, e.g. `line 7: POINTER_SCROLL_WHEEL: expected "horiz", got "hor"`.
public struct DebugEventsError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Problem: Hashable, Sendable, CustomStringConvertible {
        /// No time (`+1.234s`) after the event type; `found` is what stands there instead.
        case missingTime(type: String, found: String)
        /// The body does not read: `expected` says what should stand where `found` does
        /// (`end of line` when the line stops early).
        case malformed(type: String, expected: String, found: String)
        /// A `POINTER_SCROLL_*` line whose source in parentheses names another type, or a
        /// `POINTER_AXIS` line with a source libinput does not define (`(invalid)`).
        case unexpectedSource(type: String, source: String)

        public var description: String {
            switch self {
            case .missingTime(let type, let found):
                return "\(type): expected a time like +1.234s, got \(found)"
            case .malformed(let type, let expected, let found):
                return "\(type): expected \(expected), got \(found)"
            case .unexpectedSource(let type, let source):
                return "\(type): unexpected scroll source \(quoted(source))"
            }
        }
    }

    /// The 1-based line number.
    public var line: Int
    public var problem: Problem

    public var description: String {
        "line \(line): \(problem)"
    }
}

/// Something the importer noticed and worked around; the import goes on.
public struct DebugEventsWarning: Hashable, Sendable, CustomStringConvertible {
    public enum Kind: Hashable, Sendable {
        /// The last line names a scroll event but breaks off: it has no newline and stops at
        /// the token where it fails to read (`+3.2`, `vert 15.00/`, `GESTURE_HOLD_END … 2 cance`):
        /// what a capture cut short leaves. The line is skipped.
        case truncatedLastLine(DebugEventsError.Problem)
        /// `DEVICE_ADDED` for a sysname whose device is still present: the earlier device is
        /// taken as removed (a `device_removed` is written for it) and a new id starts.
        case deviceAddedAgain(sysname: String)
    }

    /// The 1-based line number.
    public var line: Int
    public var kind: Kind

    public var description: String {
        switch kind {
        case .truncatedLastLine(let problem):
            return "line \(line): ignored truncated last line (\(problem))"
        case .deviceAddedAgain(let sysname):
            return "line \(line): \(quoted(sysname)) added again without being removed; taken as a new device"
        }
    }
}

/// How many lines of each kind the importer skipped.
public struct DebugEventsSkipCounts: Hashable, Sendable {
    /// Empty lines (or only whitespace).
    public var blank = 0
    /// Lines that are not event lines: libinput log messages (`libinput error: …`,
    /// `event16 - …: kernel bug: …`), debug output, shell prompts, anything else.
    public var messages = 0
    /// Event lines of types scrolld does not import (`POINTER_MOTION`, `KEYBOARD_KEY`,
    /// `TOUCH_*`, `GESTURE_SWIPE_*`, …), by type.
    public var otherEvents: [String: Int] = [:]
    /// `DEVICE_ADDED` / `DEVICE_REMOVED` lines of devices that have neither the pointer nor
    /// the gesture capability (keyboards, switches, touchscreens, …) and send no scroll events,
    /// and removals of devices the transcript never showed.
    public var otherDevices = 0

    public init() {}

    /// All skipped lines.
    public var total: Int {
        blank + messages + otherDevices + otherEvents.values.reduce(0, +)
    }

    /// E.g. `3 blank, 2 messages, 1 other device, 12 other events (POINTER_MOTION 10, KEYBOARD_KEY 2)`;
    /// `nothing` when no line was skipped. Event types are listed by count, then by name.
    public var summary: String {
        var parts: [String] = []
        if blank > 0 { parts.append("\(blank) blank") }
        if messages > 0 { parts.append("\(messages) \(messages == 1 ? "message" : "messages")") }
        if otherDevices > 0 { parts.append("\(otherDevices) other \(otherDevices == 1 ? "device" : "devices")") }
        let eventCount = otherEvents.values.reduce(0, +)
        if eventCount > 0 {
            let types = otherEvents.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key < $1.key }
                .map { "\($0.key) \($0.value)" }
                .joined(separator: ", ")
            parts.append("\(eventCount) other \(eventCount == 1 ? "event" : "events") (\(types))")
        }
        return parts.isEmpty ? "nothing" : parts.joined(separator: ", ")
    }
}
