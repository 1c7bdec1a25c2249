/// Where a row meets the usable area in a `scrollTo` (docs/design.md §12): a fraction along the
/// list axis, as one coordinate of SwiftUI's `UnitPoint` — 0 the row's top (or leading edge) at the
/// area's top, 1 its bottom at the area's bottom, 0.5 centred.
public struct ScrollAnchor: Hashable, Sendable {
    /// The fraction, in [0, 1].
    public let fraction: Double

    /// An anchor at `fraction` of the row and of the usable area; it must be in [0, 1].
    public init(_ fraction: Double) throws(ScrollPositionError) {
        guard fraction >= 0, fraction <= 1 else { throw .anchorOutOfRange(fraction) }
        self.fraction = fraction
    }

    /// The anchor a request names: `top`, `center`, `bottom`, or their synonyms for a horizontal
    /// container, `leading` and `trailing` (accepted along either axis).
    public init(named name: String) throws(ScrollPositionError) {
        guard let fraction = Self.names.first(where: { $0.name == name })?.fraction else { throw .unknownAnchor(name) }
        self.fraction = fraction
    }

    private init(unchecked fraction: Double) {
        self.fraction = fraction
    }

    /// The names a request may give, with their fractions.
    public static let names: [(name: String, fraction: Double)] = [
        ("top", 0), ("center", 0.5), ("bottom", 1), ("leading", 0), ("trailing", 1),
    ]

    /// 0: the row's top at the top of the usable area.
    public static let top = ScrollAnchor(unchecked: 0)
    /// 0.5: the row's middle at the middle of the usable area.
    public static let center = ScrollAnchor(unchecked: 0.5)
    /// 1: the row's bottom at the bottom of the usable area.
    public static let bottom = ScrollAnchor(unchecked: 1)
    /// 0, ``top`` along a horizontal list.
    public static let leading = ScrollAnchor(unchecked: 0)
    /// 1, ``bottom`` along a horizontal list.
    public static let trailing = ScrollAnchor(unchecked: 1)
}
