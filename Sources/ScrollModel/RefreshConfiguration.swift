/// Pull to refresh (`refresh`, docs/design.md §21), as SwiftUI's `refreshable`, UIKit's
/// `UIRefreshControl`, Android's `SwipeRefreshLayout` and Flutter's `RefreshIndicator`: on the
/// leading edge of the list axis (the top of a vertical container).
public struct RefreshConfiguration: Hashable, Sendable {
    /// `d`, px (> 0): a drag released at least this far beyond the top starts a refresh.
    public var threshold: Double
    /// `r`, px (0 < r ≤ d): how far beyond the top the container rests while refreshing, where
    /// the app draws its indicator.
    public var height: Double

    /// Creates a refresh configuration; ScrollConfig validates `0 < height ≤ threshold`.
    public init(threshold: Double, height: Double) {
        self.threshold = threshold
        self.height = height
    }
}
