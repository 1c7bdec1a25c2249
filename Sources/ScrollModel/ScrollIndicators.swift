/// One scroll indicator (the thumb), as the state carries it (docs/design.md §22).
public struct ScrollIndicator: Hashable, Sendable {
    /// Where the thumb starts along its track, px from the track's start.
    public var offset: Double
    /// The thumb's length, px.
    public var length: Double
    /// Whether it shows: from the first change of offset until the linger after the container
    /// came to rest, or for the linger after `flashIndicators`.
    public var visible: Bool

    /// Creates an indicator from its parts.
    public init(offset: Double, length: Double, visible: Bool) {
        self.offset = offset
        self.length = length
        self.visible = visible
    }

    /// The thumb for offset `y` along an axis with container length `H`, content length `C`,
    /// insets `leading`/`trailing` (`a_lo`, `a_hi`), a header of current height `header` (0
    /// without one or across its axis), resting range `range` and shortest length `minimum`:
    ///
    /// - the track is `T = H − a_lo − a_hi − h`;
    /// - `l = max(ℓ, T × H / (C + a_lo + a_hi) − e)`, `e` how far `y` lies beyond the range
    ///   (the thumb shrinks in the rubber band);
    /// - `o = (T − l) × clamp((y − lo) / (hi − lo), 0, 1)`, 0 when `hi = lo`.
    ///
    /// Content with no length at all (`C + a_lo + a_hi` at most ``noLength``) fills the track
    /// (`l = max(ℓ, T)`).
    @inlinable
    public static func thumb(
        offset y: Double, container H: Double, content C: Double, leading: Double, trailing: Double,
        header: Double, range: ClosedRange<Double>, minimum: Double, visible: Bool
    ) -> ScrollIndicator {
        let track = H - leading - trailing - header
        let whole = C + leading + trailing
        let beyond = max(range.lowerBound - y, y - range.upperBound, 0)
        let proportional = whole > noLength ? track * H / whole : track
        let length = max(minimum, proportional - beyond)
        let span = range.upperBound - range.lowerBound
        let fraction = span > 0 ? min(max((y - range.lowerBound) / span, 0), 1) : 0
        return ScrollIndicator(offset: (track - length) * fraction, length: length, visible: visible)
    }

    /// px: content and insets of at most 10⁻²⁸⁰ px together have no length at all. Below it
    /// `T·H/(C + a_lo + a_hi)` could overflow (`H` is at most ``Limits/magnitude``, 10⁹, and
    /// `T` at most three times that with negative insets, so `T·H` stays under 10¹⁹): content
    /// of 10⁻³⁰⁰ px under a 10⁹ px container gave an infinite thumb and a NaN offset.
    public static let noLength = 1e-280
}

/// The indicators of the axes a container scrolls (`indicators` in the state).
public struct ScrollIndicators: Hashable, Sendable {
    /// The horizontal thumb; nil when the container does not scroll horizontally.
    public var x: ScrollIndicator?
    /// The vertical thumb; nil when the container does not scroll vertically.
    public var y: ScrollIndicator?

    /// Creates the pair.
    public init(x: ScrollIndicator? = nil, y: ScrollIndicator? = nil) {
        self.x = x
        self.y = y
    }

    /// The thumb along `axis`.
    @inlinable
    public subscript(axis: Axis) -> ScrollIndicator? {
        axis == .horizontal ? x : y
    }
}

/// When a container's indicators show (docs/design.md §22): from the first change of offset
/// until `indicator_linger_ms` after the phase went idle. The hide is the container's one-shot
/// timer: one wake-up and one state, and nothing afterwards.
struct IndicatorVisibility: Sendable, Hashable {
    var visible = false
    /// When they hide; set only while the container is idle.
    var hideAt: Timestamp?
    /// The offset last seen; nil before the container's first layout (its creation shows nothing).
    var lastOffset: Point?

    /// Notes the offset and phase after a change at `time`.
    mutating func note(offset: Point, idle: Bool, at time: Timestamp, linger: Timestamp) {
        let changed = lastOffset.map { $0 != offset } ?? false
        lastOffset = offset
        if changed { visible = true }
        guard visible else { return }
        guard idle else {
            hideAt = nil
            return
        }
        if changed || hideAt == nil { scheduleHide(at: time, linger: linger) }
    }

    /// `flashIndicators`: show them, for the linger when at rest (else until the linger after rest).
    mutating func flash(idle: Bool, at time: Timestamp, linger: Timestamp) {
        visible = true
        hideAt = nil
        if idle { scheduleHide(at: time, linger: linger) }
    }

    /// Without a linger they hide with the state that comes to rest: no timer.
    private mutating func scheduleHide(at time: Timestamp, linger: Timestamp) {
        if linger > 0 {
            hideAt = time + linger
        } else {
            visible = false
            hideAt = nil
        }
    }

    /// The hide timer, if it is due at `time`.
    mutating func fire(at time: Timestamp) {
        guard let deadline = hideAt, deadline <= time else { return }
        visible = false
        hideAt = nil
    }
}
