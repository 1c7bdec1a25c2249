extension ScrollContainer {
    /// Whether the position, the offset and the velocity are all finite numbers.
    ///
    /// Every value a client or a file gives is validated into a range where the arithmetic stays
    /// finite (`Limits`), so this holds; the engine checks it after every change all the same,
    /// because a state with NaN in it would reach every subscriber (and be stored for a restart).
    @inline(__always)
    var isFinite: Bool {
        position.x.isFinite && position.y.isFinite && velocity.x.isFinite && velocity.y.isFinite
            && contentOffset.x.isFinite && contentOffset.y.isFinite
    }

    /// Brings a container whose motion went non-finite to rest at `fallback` (where it last
    /// was with finite numbers), clamped to its resting range: every motion and gesture ends.
    @inline(never)
    mutating func restAfterNonFiniteMotion(at fallback: Point) {
        stopMotion()
        drag = nil
        wheel = nil
        holdDevice = nil
        snapArmed = false
        tracker.reset()
        rest(.horizontal, at: fallback)
        rest(.vertical, at: fallback)
        layout()
    }

    private mutating func rest(_ axis: Axis, at fallback: Point) {
        let range = self.range(axis)
        position[axis] = Math.clamp(fallback[axis].isFinite ? fallback[axis] : range.lowerBound, range)
    }
}
