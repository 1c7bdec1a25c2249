/// How a container's gestures feel beyond the physics (docs/design.md §22): the directional
/// lock, whether an axis that fits bounces, how releases snap, and the scroll indicators.
public struct GestureSettings: Hashable, Sendable {
    /// `directional_lock`: on a container that takes input on both axes, a drag moves along the
    /// axis it started along only, when it started within 22.5° of it (UIKit's
    /// `isDirectionalLockEnabled`). Default false.
    public var directionalLock: Bool
    /// `bounce` (SwiftUI's `scrollBounceBehavior`); default ``BounceBehavior/always``.
    public var bounce: BounceBehavior
    /// `snap_type` (CSS `scroll-snap-type`); default ``SnapType/mandatory``. Acts only with a
    /// scroll target (`scroll_target` paging or rows).
    public var snapType: SnapType
    /// `snap_proximity`, px: how near a snap point a release must come to rest for a
    /// ``SnapType/proximity`` container to snap; nil (the default): a third of the container's
    /// length along the axis.
    public var snapProximity: Double?
    /// `snap_stop` (CSS `scroll-snap-stop: always`): a fling never passes a snap point.
    public var snapStop: Bool
    /// `indicator_min_length`, px (ℓ): the shortest a scroll indicator gets. Default 36.
    public var indicatorMinLength: Double
    /// `indicator_linger_ms`: how long the indicators stay visible after the container came to
    /// rest, or after `flashIndicators`. Default 500.
    public var indicatorLingerMilliseconds: Double

    /// The defaults of docs/design.md §22.
    public init(
        directionalLock: Bool = false,
        bounce: BounceBehavior = .always,
        snapType: SnapType = .mandatory,
        snapProximity: Double? = nil,
        snapStop: Bool = false,
        indicatorMinLength: Double = 36,
        indicatorLingerMilliseconds: Double = 500
    ) {
        self.directionalLock = directionalLock
        self.bounce = bounce
        self.snapType = snapType
        self.snapProximity = snapProximity
        self.snapStop = snapStop
        self.indicatorMinLength = indicatorMinLength
        self.indicatorLingerMilliseconds = indicatorLingerMilliseconds
    }

    /// The linger as a duration on the engine's clock, µs.
    @inlinable
    public var indicatorLinger: Timestamp { Timestamp((indicatorLingerMilliseconds * 1000).rounded()) }
}

/// Whether input rubber-bands an axis whose content fits (SwiftUI's `ScrollBounceBehavior`).
public enum BounceBehavior: String, Hashable, Sendable, CaseIterable {
    /// Every scrolled axis takes input and rubber-bands, content that fits included.
    case always
    /// An axis whose resting range is empty (`hi = lo`) takes no input: nothing moves, no state
    /// is published for it, and routing hands it on as if the container did not scroll it.
    case basedOnSize
}

/// How strictly a release snaps to the scroll target's snap points (CSS `scroll-snap-type`).
public enum SnapType: String, Hashable, Sendable, CaseIterable {
    /// Always (the page boundary or row top the scroll target picks).
    case mandatory
    /// Only when the natural resting point lies within `snap_proximity` of a snap point.
    case proximity
}
