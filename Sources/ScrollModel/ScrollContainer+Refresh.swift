/// docs/design.md §21 "Pull to refresh" in a container: while refreshing, the top of the resting
/// range along the list axis is `lo − r` (``ScrollContainer/range(_:)`` reads
/// ``ScrollContainer/refreshLift``), so every bounce, clamp and rubber band that meets the top
/// meets it there instead, and scrolling into the content and back works as anywhere else.
extension ScrollContainer {
    /// Whether a refresh is running (the state's `refreshing`).
    @inline(__always)
    public var isRefreshing: Bool { refreshing }

    /// A finger or continuous drag is being released (before its bounce is planned): pulled at
    /// least `d` beyond the top (`y ≤ lo − d`), it starts a refresh, and the bounce then heads
    /// for `lo − r`. Wheels never get here: they never overscroll.
    @inline(__always)
    mutating func startRefreshIfPulled() {
        guard let refresh = configuration.refresh, !refreshing else { return }
        let axis = configuration.listAxis
        guard scrolls(axis), position[axis] <= -contentInsets.leadingEdge(axis) - refresh.threshold else { return }
        setRefreshing(true)
    }

    /// Turns the refresh on or off and with it the lift of the resting range's top.
    mutating func setRefreshing(_ on: Bool) {
        refreshing = on
        refreshLift = .zero
        if on, let refresh = configuration.refresh { refreshLift[configuration.listAxis] = refresh.height }
    }

    /// `beginRefresh`: starts a refresh without a pull. Nothing moves: `lo − r` becomes the top
    /// of the resting range, which the offset already lies in. Returns false (and changes
    /// nothing) when one is already running or no refresh is configured.
    @discardableResult
    public mutating func beginRefresh(at time: Timestamp) -> Bool {
        guard configuration.refresh != nil, !refreshing else { return false }
        advance(to: time)
        defer { layout() }
        setRefreshing(true)
        keepDragInPlace()
        return true
    }

    /// `endRefresh`: ends the refresh, and `lo` is the top again. An offset resting above `lo`
    /// springs back to it with the bounce spring; a running motion is re-planned against the
    /// range (a bounce towards `lo − r` heads for `lo` from where it is, with its velocity); a
    /// drag goes on from where it shows the content, and its release bounces back to `lo`; a
    /// hold's end does. Returns false (and changes nothing) when no refresh is running.
    @discardableResult
    public mutating func endRefresh(at time: Timestamp) -> Bool {
        guard refreshing else { return false }
        advance(to: time)
        defer { layout() }
        setRefreshing(false)
        let axis = configuration.listAxis
        guard scrolls(axis), drag == nil else {
            keepDragInPlace()
            return true
        }
        if self[motion: axis] != nil {
            carryOn(axis, at: time)
        } else if holdDevice == nil, position[axis] < range(axis).lowerBound {
            let curve = SpringCurve(
                from: position[axis], velocity: 0, target: range(axis).lowerBound,
                spring: .criticallyDamped(stiffness: configuration.physics.bounceStiffness)
            )
            self[motion: axis] = Trajectory(start: time, curve: .spring(curve), purpose: .momentum)
            velocity[axis] = 0
        }
        return true
    }

    /// The top of the range moved under a drag: its raw position is taken again from the offset
    /// it shows, as a drag starting there would (docs/design.md §5), so the content does not jump.
    mutating func keepDragInPlace() {
        guard drag != nil else { return }
        let axis = configuration.listAxis
        guard scrolls(axis) else { return }
        drag!.raw[axis] = unshown(position[axis], axis)
    }

    /// After a configuration change: a running refresh takes the new height, or ends when the
    /// container no longer has a `refresh` (an offset resting beyond the top is then clamped,
    /// as any offset at rest is across a change).
    mutating func carryRefreshOn() {
        guard refreshing else { return }
        setRefreshing(configuration.refresh != nil)
    }
}
