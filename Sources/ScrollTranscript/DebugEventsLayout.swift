import ScrollJSON

/// Which `libinput debug-events` output a transcript comes from, as far as its scroll lines
/// tell (see docs/event-log.md). Only informational: the importer reads every layout with the
/// same whitespace-tolerant rules, so a transcript whose columns were mangled in a paste still
/// imports.
public enum DebugEventsLayout: Hashable, Sendable, CustomStringConvertible {
    /// libinput ≤ 1.12: `POINTER_AXIS` with `vert %.2f%s horiz %.2f%s`, a source in
    /// parentheses from 1.7 on, no click count, and no `*` marks before 1.2.
    case legacyAxis
    /// libinput 1.13 – 1.18: `POINTER_AXIS` with `vert %.2f/%d%s horiz %.2f/%d%s (%s)`.
    case axis
    /// libinput 1.19 – 1.26: `POINTER_SCROLL_WHEEL|FINGER|CONTINUOUS` with `value/v120`.
    case scroll
    /// libinput 1.27: as 1.19, plus a repeat-count column (`%3zd ` or four spaces).
    case scrollRepeatCount
    /// libinput ≥ 1.28: as 1.27, with one more space before the time.
    case scrollRepeatCountWide
    /// libinput ≥ 1.19 (`POINTER_SCROLL_*` or `GESTURE_HOLD_*` lines), but the columns are not
    /// spaced as libinput printed them (a paste that turned or squeezed the spaces), so the
    /// exact version range is unknown.
    case scrollUnaligned

    /// The libinput versions that print this layout.
    public var versions: String {
        switch self {
        case .legacyAxis: return "libinput ≤ 1.12"
        case .axis: return "libinput 1.13–1.18"
        case .scroll: return "libinput 1.19–1.26"
        case .scrollRepeatCount: return "libinput 1.27"
        case .scrollRepeatCountWide: return "libinput ≥ 1.28"
        case .scrollUnaligned: return "libinput ≥ 1.19"
        }
    }

    /// E.g. `libinput 1.19–1.26 (POINTER_SCROLL_* lines)`.
    public var description: String {
        switch self {
        case .legacyAxis: return versions + " (POINTER_AXIS lines without click counts)"
        case .axis: return versions + " (POINTER_AXIS lines)"
        case .scroll: return versions + " (POINTER_SCROLL_* lines)"
        case .scrollRepeatCount: return versions + " (POINTER_SCROLL_* lines with repeat counts)"
        case .scrollRepeatCountWide: return versions + " (POINTER_SCROLL_* lines with repeat counts)"
        case .scrollUnaligned: return versions + " (POINTER_SCROLL_* lines, columns not as printed)"
        }
    }

    /// Whether a line's layout says less than this one: the importer keeps the first layout
    /// that pins a version range down and lets only such a line replace a vaguer one.
    var isVague: Bool { self == .scrollUnaligned }
}
