import ScrollJSON
import ScrollModel

/// What one transcript line holds, before the importer gives it a device id and a clock time.
enum DebugEventsRecord: Equatable {
    /// Nothing but whitespace.
    case blank
    /// Not an event line: a libinput log message, a shell prompt, anything else.
    case text
    /// An event line of a type that is not imported, with its time when it has one.
    case otherEvent(type: String, time: Timestamp?)
    case device(added: Bool, sysname: String, info: DebugEventsDeviceLine)
    case scroll(sysname: String, time: Timestamp, scroll: DebugEventsScrollLine, layout: DebugEventsLayout)
    case hold(sysname: String, time: Timestamp, begin: Bool, fingers: Int, cancelled: Bool, layout: DebugEventsLayout)
    /// `TOUCH_DOWN`, `TOUCH_MOTION`, `TOUCH_UP`, `TOUCH_CANCEL`: the event with its slot and,
    /// for a down or motion, the point normalized (the line's `x/y` are percent of the screen).
    case touch(sysname: String, time: Timestamp, kind: ScrollEvent.Kind)
}

/// The body of a `DEVICE_ADDED` / `DEVICE_REMOVED` line:
/// `"%-33s %5s %7s group%-2d cap:%s"` (name, seat, logical seat, group, capability letters
/// `k p t g T P S`), then on `DEVICE_ADDED` the size, touch count and configuration options
/// (` tap (dl off) left scroll-nat scroll-2fg-edge click-… dwt-on …`).
struct DebugEventsDeviceLine: Equatable {
    /// The device name; nil when the line shows none.
    var name: String?
    /// The letters after `cap:`; nil when the line has no `cap:` field.
    var capabilityLetters: [UInt8]?
    /// A `scroll-…` option listing `-2fg` or `-edge` (a touchpad).
    var touchpadScrolling = false
    /// A `scroll-…` option listing `-button` (button scrolling: trackpoints, and mice that allow it).
    var buttonScrolling = false

    private func has(_ letter: Unicode.Scalar) -> Bool {
        capabilityLetters?.contains(UInt8(ascii: letter)) ?? false
    }

    /// Whether scrolld would open the device: it has the pointer or the gesture capability, or
    /// the line does not say; or it is a touchscreen (`t`, docs/design.md §25).
    var isPointerOrGesture: Bool { capabilityLetters == nil || has("p") || has("g") || has("t") }

    /// Whether the device is a touchpad (gesture capability or two-finger / edge scrolling).
    var isTouchpad: Bool { has("g") || touchpadScrolling }

    /// The event log capabilities the line itself shows (the importer adds those of the events
    /// the device sends): `g` → hold, `scroll-2fg`/`scroll-edge` → finger, `scroll-button` →
    /// continuous, `t` → touch. No line tells whether a pointer has a wheel.
    var capabilities: DeviceCapabilities {
        var caps: DeviceCapabilities = []
        if touchpadScrolling { caps.insert(.finger) }
        if buttonScrolling { caps.insert(.continuous) }
        if has("g") { caps.insert(.hold) }
        if has("t") { caps.insert(.touch) }
        return caps
    }
}

/// A scroll line's body: `vert V[/N][*] horiz V[/N][*] [(source)]`.
struct DebugEventsScrollLine: Equatable {
    /// The event type the line names.
    enum EventType: Equatable { case axis, wheel, finger, continuous }
    /// The source in parentheses.
    enum Source: Equatable { case wheel, finger, continuous, tilt }

    struct Reading: Equatable {
        /// The value before the slash: degrees for wheels, pointer units otherwise.
        var value: Double
        /// The number after the slash: the click count (≤ 1.18) or v120 (≥ 1.19).
        var second: Double?
        /// A `*` follows: libinput's `has_axis` was true.
        var marked: Bool
    }

    var type: EventType
    var source: Source?
    var vertical: Reading
    var horizontal: Reading
}

/// Why a line did not read, and whether a line cut short (a capture stopped mid-write) could
/// look like this: only then is an unterminated last line skipped rather than an error.
struct DebugEventsLineFailure: Error {
    var error: DebugEventsError
    var truncatable: Bool
}
