/// What a collapsing header shows: its height and how far it has collapsed (0 expanded, 1
/// collapsed).
public struct HeaderState: Hashable, Sendable {
    /// The header's height, px: between `minHeight` and `maxHeight`, or taller than `maxHeight`
    /// while a stretching header is pulled past the top edge.
    public var height: Double
    /// How far it has collapsed, `clamp((M − height)/(M − m), 0, 1)`: 0 fully expanded (also
    /// when stretched, and always when `M = m`), 1 collapsed to `minHeight`.
    public var progress: Double

    /// Creates a header state; containers compute theirs with
    /// ``HeaderConfiguration/state(atDistanceFromTop:)``.
    @inlinable
    public init(height: Double, progress: Double) {
        self.height = height
        self.progress = progress
    }
}

extension HeaderConfiguration {
    /// The header for an offset `u` measured from the top resting edge (`u = y − lo`).
    @inlinable
    public func state(atDistanceFromTop u: Double) -> HeaderState {
        let m = minHeight, M = maxHeight
        let height: Double
        if u < 0 {
            height = stretch ? M - u : M
        } else {
            height = max(m, M - u)
        }
        let progress = M == m ? 0 : Math.clamp((M - height) / (M - m), 0...1)
        return HeaderState(height: height, progress: progress)
    }

    /// Where a snap goes from `u` (`0 < u < R`): collapsed when past half way, else expanded
    /// (an exact half expands). Nil when `u` is not strictly between the two.
    @inlinable
    public func snapTarget(atDistanceFromTop u: Double) -> Double? {
        let range = maxHeight - minHeight
        guard snap, u > 0, u < range else { return nil }
        return u > range / 2 ? range : 0
    }

    /// The snap's duration in seconds: `min(600, (|Δ|/M + 1) × 150)` ms.
    @inlinable
    public func snapDuration(distance: Double) -> Double {
        let ms = min(600, (abs(distance) / maxHeight + 1) * 150)
        return ms / 1000
    }
}
