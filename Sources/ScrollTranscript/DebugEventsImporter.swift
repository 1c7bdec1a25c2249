import ScrollJSON
import ScrollLog
import ScrollModel

/// Converts a `libinput debug-events` transcript into scroll events (docs/design.md §9), one line
/// at a time; `finish()` hands out the result. The rules, per layout, are in docs/event-log.md:
///
/// - Imported: `POINTER_AXIS` (libinput ≤ 1.18), `POINTER_SCROLL_WHEEL|FINGER|CONTINUOUS`
///   (≥ 1.19, with or without the ≥ 1.27 repeat-count column), `GESTURE_HOLD_BEGIN|END`,
///   `DEVICE_ADDED|REMOVED`. Everything else is skipped and counted: other event types, log
///   messages, blank lines.
/// - Devices get ids 1, 2, … in order of appearance; only devices with the pointer or gesture
///   capability (or that send scroll events) appear, the way scrolld itself never opens a
///   keyboard. A device that sends events without a `DEVICE_ADDED` line gets one made up (its
///   name is the sysname). Capabilities: what the line shows (`g` → hold, `scroll-2fg`/`-edge`
///   → finger, `scroll-button` → continuous) plus the kind of every event the device sends.
/// - Times: the transcript's seconds as integer µs, never decreasing; a time at or above
///   4 000 000 s is libinput's 32-bit millisecond wrap-around of a time just before its start
///   (1.22's `+4294967.290s` on a device's first event) and takes the previous time (0 at first).
/// - A line that names a scroll or hold event and does not read is an error with its line
///   number, unless it is an unterminated last line that breaks off where it fails (a capture
///   cut short): that one is skipped with a warning.
///
/// Pure Swift with no Foundation, so that it can be fuzzed: no input makes it trap.
public struct DebugEventsImporter: Sendable {
    /// Times at or above this (4 000 000 s, 46 days) are wrapped: libinput prints
    /// `(uint32_t)(time − start) / 1000.0` with millisecond times, so an event stamped a few ms
    /// before the tool's start time prints as 4294967.296 s minus those ms.
    public static let wrappedTime: Timestamp = 4_000_000 * 1_000_000

    /// The layout the transcript's scroll and hold lines show, once one has been read.
    public private(set) var layout: DebugEventsLayout?
    /// The lines skipped so far, by kind.
    public private(set) var skipped = DebugEventsSkipCounts()
    /// What was noticed and worked around so far.
    public private(set) var warnings: [DebugEventsWarning] = []

    private var events: [ScrollEvent] = []
    private var devices: [Device] = []
    /// Sysname → index in `devices` of the device present under that name.
    private var present: [String: Int] = [:]
    /// Devices added without the pointer or gesture capability: not written unless they send
    /// scroll events after all.
    private var dormant: [String: DebugEventsDeviceLine] = [:]
    /// The clock: the time of the latest event line.
    private var now: Timestamp = 0

    private struct Device: Sendable {
        var id: Int
        /// Where its `device_added` is in `events`, to complete the capabilities at the end.
        var addedAt: Int
        var capabilities: DeviceCapabilities
        var isTouchpad: Bool
    }

    public init() {}

    /// Reads one line (without its newline; a trailing "\r" and other trailing whitespace are
    /// tolerated).
    ///
    /// - Parameter isLast: true for the input's final line when no newline ends it.
    public mutating func feed(line: UnsafeRawBufferPointer, lineNumber: Int, isLast: Bool = false) throws(DebugEventsError) {
        let record: DebugEventsRecord
        do {
            record = try DebugEventsLineParser.parse(line, lineNumber: lineNumber)
        } catch {
            guard isLast, error.truncatable else { throw error.error }
            warnings.append(DebugEventsWarning(line: lineNumber, kind: .truncatedLastLine(error.error.problem)))
            return
        }
        apply(record, lineNumber: lineNumber)
    }

    /// Reads one line given as any bytes (an array, a slice, a string's `utf8`, …).
    public mutating func feed<Bytes: Sequence<UInt8>>(line: Bytes, lineNumber: Int, isLast: Bool = false) throws(DebugEventsError) {
        let direct = line.withContiguousStorageIfAvailable { buffer in
            Result { () throws(DebugEventsError) in
                try feed(line: UnsafeRawBufferPointer(buffer), lineNumber: lineNumber, isLast: isLast)
            }
        }
        if let direct { return try direct.get() }
        let copy = Array(line)
        try copy.withUnsafeBytes { buffer in
            Result { () throws(DebugEventsError) in
                try feed(line: buffer, lineNumber: lineNumber, isLast: isLast)
            }
        }.get()
    }

    /// The events read so far, each device's capabilities completed with what it sent.
    public func finish() -> DebugEventsImport {
        var events = self.events
        for device in devices {
            if case .deviceAdded(let name, _) = events[device.addedAt].kind {
                events[device.addedAt].kind = .deviceAdded(name: name, capabilities: device.capabilities)
            }
        }
        return DebugEventsImport(events: events, layout: layout, skipped: skipped, warnings: warnings)
    }

    /// Whether the first lines of a file are a `debug-events` transcript rather than an event
    /// log: the first line with content does not start with `{` (an event log's JSON header
    /// does), and some line is an event line (`[-]sysname TYPE …` with one of libinput's event
    /// types). Give it the first hundred lines or so: a `--verbose` transcript may start with
    /// many log messages.
    public static func looksLikeTranscript<Lines: Sequence>(firstLines: Lines) -> Bool where Lines.Element: StringProtocol {
        looksLikeTranscript(lines: firstLines.lazy.map { Array($0.utf8) })
    }

    /// As `looksLikeTranscript(firstLines:)`, with the lines as bytes.
    public static func looksLikeTranscript<Lines: Sequence>(firstByteLines: Lines) -> Bool where Lines.Element: Collection<UInt8> {
        looksLikeTranscript(lines: firstByteLines.lazy.map { Array($0) })
    }

    private static func looksLikeTranscript<Lines: Sequence<[UInt8]>>(lines: Lines) -> Bool {
        var first = true
        for line in lines {
            var content = line[...]
            // A byte order mark and leading whitespace do not count.
            if content.starts(with: [0xEF, 0xBB, 0xBF]) { content = content.dropFirst(3) }
            content = content.drop { DebugEventsLineParser.isSpace($0) }
            if content.isEmpty { continue }
            if first {
                if content.first == UInt8(ascii: "{") { return false }
                first = false
            }
            let header = line.withUnsafeBytes { DebugEventsLineParser.eventHeader($0) }
            if let header, knownEventTypes.contains(header.type) { return true }
        }
        return false
    }

    /// Every event type libinput's tools print.
    static let knownEventTypes: Set<String> = [
        "DEVICE_ADDED", "DEVICE_REMOVED", "KEYBOARD_KEY", "POINTER_MOTION", "POINTER_MOTION_ABSOLUTE",
        "POINTER_BUTTON", "POINTER_AXIS", "POINTER_SCROLL_WHEEL", "POINTER_SCROLL_FINGER",
        "POINTER_SCROLL_CONTINUOUS", "TOUCH_DOWN", "TOUCH_MOTION", "TOUCH_UP", "TOUCH_CANCEL",
        "TOUCH_FRAME", "GESTURE_SWIPE_BEGIN", "GESTURE_SWIPE_UPDATE", "GESTURE_SWIPE_END",
        "GESTURE_PINCH_BEGIN", "GESTURE_PINCH_UPDATE", "GESTURE_PINCH_END", "GESTURE_HOLD_BEGIN",
        "GESTURE_HOLD_END", "TABLET_TOOL_AXIS", "TABLET_TOOL_PROXIMITY", "TABLET_TOOL_TIP",
        "TABLET_TOOL_BUTTON", "TABLET_PAD_BUTTON", "TABLET_PAD_RING", "TABLET_PAD_STRIP",
        "TABLET_PAD_KEY", "TABLET_PAD_DIAL", "SWITCH_TOGGLE",
    ]

    // MARK: Records

    private mutating func apply(_ record: DebugEventsRecord, lineNumber: Int) {
        switch record {
        case .blank:
            skipped.blank += 1
        case .text:
            skipped.messages += 1
        case .otherEvent(let type, let time):
            skipped.otherEvents[type, default: 0] += 1
            // Still the clock: a device plugged in later is stamped with the time before it.
            if let time { _ = advance(to: time) }
        case .device(added: true, let sysname, let info):
            if let index = present.removeValue(forKey: sysname) {
                warnings.append(DebugEventsWarning(line: lineNumber, kind: .deviceAddedAgain(sysname: sysname)))
                events.append(ScrollEvent(time: now, device: devices[index].id, kind: .deviceRemoved))
            }
            if info.isPointerOrGesture {
                dormant[sysname] = nil
                present[sysname] = addDevice(name: info.name ?? sysname, info: info, at: now)
            } else {
                dormant[sysname] = info
                skipped.otherDevices += 1
            }
        case .device(added: false, let sysname, _):
            if let index = present.removeValue(forKey: sysname) {
                events.append(ScrollEvent(time: now, device: devices[index].id, kind: .deviceRemoved))
            } else {
                dormant[sysname] = nil
                skipped.otherDevices += 1
            }
        case .scroll(let sysname, let time, let scroll, let layout):
            note(layout)
            let time = advance(to: time)
            let index = device(sysname, at: time)
            let kind = Self.kind(of: scroll, fromTouchpad: devices[index].isTouchpad)
            emit(ScrollEvent(time: time, device: devices[index].id, kind: kind), from: index)
        case .hold(let sysname, let time, let begin, let fingers, let cancelled, let layout):
            note(layout)
            let time = advance(to: time)
            let index = device(sysname, at: time)
            let kind: ScrollEvent.Kind = begin ? .holdBegin(fingers: fingers) : .holdEnd(fingers: fingers, cancelled: cancelled)
            emit(ScrollEvent(time: time, device: devices[index].id, kind: kind), from: index)
        case .touch(let sysname, let time, let kind):
            let time = advance(to: time)
            let index = device(sysname, at: time)
            emit(ScrollEvent(time: time, device: devices[index].id, kind: kind), from: index)
        }
    }

    /// Keeps the first layout that pins the version range down.
    private mutating func note(_ lineLayout: DebugEventsLayout) {
        if layout == nil || (layout!.isVague && !lineLayout.isVague) { layout = lineLayout }
    }

    /// Moves the clock to an event line's time and returns the event's time: never earlier than
    /// the previous one, and a wrapped time is taken as the previous one.
    private mutating func advance(to time: Timestamp) -> Timestamp {
        if time < Self.wrappedTime, time > now { now = time }
        return now
    }

    /// The device present under `sysname`, added now if the transcript has not shown it.
    private mutating func device(_ sysname: String, at time: Timestamp) -> Int {
        if let index = present[sysname] { return index }
        let info = dormant.removeValue(forKey: sysname)
        if info != nil { skipped.otherDevices -= 1 }
        let index = addDevice(name: info?.name ?? sysname, info: info ?? DebugEventsDeviceLine(), at: time)
        present[sysname] = index
        return index
    }

    private mutating func addDevice(name: String, info: DebugEventsDeviceLine, at time: Timestamp) -> Int {
        let id = devices.count + 1
        events.append(ScrollEvent(time: time, device: id, kind: .deviceAdded(name: name, capabilities: info.capabilities)))
        devices.append(Device(id: id, addedAt: events.count - 1, capabilities: info.capabilities, isTouchpad: info.isTouchpad))
        return devices.count - 1
    }

    private mutating func emit(_ event: ScrollEvent, from index: Int) {
        switch event.kind {
        case .wheel: devices[index].capabilities.insert(.wheel)
        case .finger: devices[index].capabilities.insert(.finger)
        case .continuous: devices[index].capabilities.insert(.continuous)
        case .holdBegin, .holdEnd: devices[index].capabilities.insert(.hold)
        case .touchDown, .touchMotion, .touchUp, .touchCancel: devices[index].capabilities.insert(.touch)
        case .deviceAdded, .deviceRemoved: break
        }
        events.append(event)
    }

    // MARK: Values

    /// libinput's default wheel click angle: what a detent is worth when a line gives degrees
    /// but no click count (libinput ≤ 1.12).
    static let degreesPerDetent = 15.0

    /// The event a scroll line stands for.
    static func kind(of scroll: DebugEventsScrollLine, fromTouchpad touchpad: Bool) -> ScrollEvent.Kind {
        let vertical = scroll.vertical
        let horizontal = scroll.horizontal
        // Which axes are present: the `*` marks, except on POINTER_AXIS lines that have none
        // (libinput ≤ 1.1): there an axis is present when non-zero, and a line of zeros is a
        // stop on both axes.
        let hasX: Bool
        let hasY: Bool
        if scroll.type != .axis || vertical.marked || horizontal.marked {
            hasX = horizontal.marked
            hasY = vertical.marked
        } else if vertical.value == 0 && horizontal.value == 0 {
            hasX = true
            hasY = true
        } else {
            hasX = horizontal.value != 0
            hasY = vertical.value != 0
        }
        func values(_ value: (DebugEventsScrollLine.Reading) -> Double) -> AxisValues {
            AxisValues(x: hasX ? value(horizontal) : nil, y: hasY ? value(vertical) : nil)
        }
        let source: DebugEventsScrollLine.Source
        switch scroll.type {
        case .wheel: source = .wheel
        case .finger: source = .finger
        case .continuous: source = .continuous
        case .axis: source = scroll.source ?? (touchpad ? .finger : .wheel)
        }
        switch source {
        case .wheel, .tilt:
            let v120: AxisValues
            if scroll.type == .wheel {
                v120 = values { $0.second ?? 0 }
            } else {
                // POINTER_AXIS: the click count, or without one the degrees at 15° a detent.
                v120 = values { reading in
                    if let clicks = reading.second { return clicks * 120 }
                    return reading.value * (120 / degreesPerDetent)
                }
            }
            return .wheel(v120: v120, degrees: values(\.value))
        case .finger:
            return .finger(values(\.value))
        case .continuous:
            return .continuous(values(\.value))
        }
    }
}

/// A whole transcript, imported.
public struct DebugEventsImport: Hashable, Sendable {
    /// The events, in transcript order, ready for the event log writer or the engine.
    public var events: [ScrollEvent]
    /// The layout the scroll and hold lines show; nil when the transcript has none.
    public var layout: DebugEventsLayout?
    public var skipped: DebugEventsSkipCounts
    public var warnings: [DebugEventsWarning]

    public init(events: [ScrollEvent], layout: DebugEventsLayout?, skipped: DebugEventsSkipCounts, warnings: [DebugEventsWarning]) {
        self.events = events
        self.layout = layout
        self.skipped = skipped
        self.warnings = warnings
    }

    /// Imports a whole transcript held in memory. Lines end in "\n" (a "\r" before it is
    /// tolerated); the last line may lack its newline.
    public init(parsing bytes: [UInt8]) throws(DebugEventsError) {
        var importer = DebugEventsImporter()
        var lines = LineCursor()
        try bytes.withUnsafeBytes { raw in
            Result { () throws(DebugEventsError) in
                while let (range, isLast) = lines.next(in: raw) {
                    try importer.feed(line: UnsafeRawBufferPointer(rebasing: raw[range]), lineNumber: lines.lineNumber, isLast: isLast)
                }
            }
        }.get()
        self = importer.finish()
    }

    public init(parsing text: String) throws(DebugEventsError) {
        try self.init(parsing: Array(text.utf8))
    }

    /// The event log header's `source` for this import, e.g.
    /// `libinput debug-events transcript bug-1234.txt, libinput 1.19–1.26 (POINTER_SCROLL_* lines)`.
    public func headerSource(transcript name: String) -> String {
        "libinput debug-events transcript \(name), " + (layout?.description ?? "no scroll lines")
    }

    /// The import as an event log.
    public func eventLog(created: String?, transcript name: String) -> EventLog {
        EventLog(header: EventLogHeader(created: created, source: headerSource(transcript: name)), events: events)
    }
}
