/// The phase of a scroll container, with SwiftUI's names.
public enum ScrollPhase: String, Hashable, Sendable, CaseIterable {
    /// Nothing moves and nothing touches it.
    case idle
    /// Fingers rest on the touchpad (a hold gesture) and the content is held still.
    case tracking
    /// The user drives the offset: a drag, or a wheel gesture until it has settled and gone quiet.
    case interacting
    /// Momentum after a release: deceleration, bounce, or a scroll-target snap.
    case decelerating
    /// A programmatic scroll or a header snap.
    case animating

    /// True in every phase except ``idle``, as SwiftUI's `ScrollPhase.isScrolling`.
    public var isScrolling: Bool { self != .idle }
}
