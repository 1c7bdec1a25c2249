extension ScrollContainer {
    /// Whether the position, the offset and the velocity are all finite and within
    /// `Limits.stateMagnitude` (NaN is not): what a published state may carry, and what a
    /// restart's store keeps.
    ///
    /// Every value a client or a file gives is validated into a range where the arithmetic stays
    /// finite (`Limits`), so this holds for every motion a container makes; the engine checks it
    /// after every change all the same, because a state with NaN in it would reach every
    /// subscriber (and be stored for a restart), and input as large as a double holds (an event
    /// log's) can still drive a drag's velocity past any a container reaches.
    @inline(__always)
    var isWithinStateMagnitude: Bool {
        let limit = Limits.stateMagnitude
        return abs(position.x) <= limit && abs(position.y) <= limit && abs(velocity.x) <= limit && abs(velocity.y) <= limit
            && abs(contentOffset.x) <= limit && abs(contentOffset.y) <= limit
    }

    /// Brings a container whose motion went non-finite (or past `Limits.stateMagnitude`) to rest
    /// at `fallback` (where it last was within it), clamped to its resting range: every motion
    /// and gesture ends.
    @inline(never)
    mutating func restAfterRunawayMotion(at fallback: Point) {
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
