extension ScrollContainer {
    /// Half a pixel: an offset this close to an edge is at it (as `atEdge` observes it).
    static let edgeTolerance = 0.5

    /// Whether the container rests at the edge a gesture moving the offset up (`towardsEnd`:
    /// positive deltas, down or right) or down would push against: nothing moves it along
    /// `axis` (no drag, no motion) and its offset is within half a pixel of that edge or beyond.
    /// A container that is still moving keeps a new gesture (docs/design.md §14 "latching").
    @inline(__always)
    func restsAtEdge(_ axis: Axis, towardsEnd: Bool) -> Bool {
        guard drag == nil else { return false }
        if axis == .horizontal ? motionX.isSome : motionY.isSome { return false }
        return !canMove(axis, towardsEnd: towardsEnd)
    }

    /// Whether the offset along `axis` is more than half a pixel from the edge a gesture
    /// moving towards the end (or the start) pushes against, so that such a gesture moves it.
    @inline(__always)
    func canMove(_ axis: Axis, towardsEnd: Bool) -> Bool {
        let range = self.range(axis)
        let y = position[axis]
        return towardsEnd ? y < range.upperBound - Self.edgeTolerance : y > range.lowerBound + Self.edgeTolerance
    }
}

extension ScrollEvent {
    /// The event with only the values along `axes` (the part routed to one container), or nil
    /// when it keeps all it has: holds and events whose present axes all lie in `axes`.
    func restricted(to axes: Axis.Set) -> ScrollEvent? {
        // Most parts are whole (one container takes every axis present): decided without
        // copying the event, which costs a retain and a large copy.
        let present: AxisValues
        switch kind {
        case .wheel(let v120, _): present = v120
        case .finger(let delta), .continuous(let delta): present = delta
        case .deviceAdded, .deviceRemoved, .holdBegin, .holdEnd, .touchDown, .touchMotion, .touchUp, .touchCancel: return nil
        }
        if (present.x == nil || axes.contains(.horizontal)) && (present.y == nil || axes.contains(.vertical)) { return nil }
        func keep(_ values: AxisValues) -> AxisValues? {
            let x = axes.contains(.horizontal) ? values.x : nil
            let y = axes.contains(.vertical) ? values.y : nil
            guard x != values.x || y != values.y else { return nil }
            return AxisValues(x: x, y: y)
        }
        var event = self
        switch kind {
        case let .wheel(v120, degrees):
            guard let kept = keep(v120) else { return nil }
            event.kind = .wheel(v120: kept, degrees: degrees.map { AxisValues(x: kept.x == nil ? nil : $0.x, y: kept.y == nil ? nil : $0.y) })
        case let .finger(delta):
            guard let kept = keep(delta) else { return nil }
            event.kind = .finger(kept)
        case let .continuous(delta):
            guard let kept = keep(delta) else { return nil }
            event.kind = .continuous(kept)
        case .deviceAdded, .deviceRemoved, .holdBegin, .holdEnd, .touchDown, .touchMotion, .touchUp, .touchCancel:
            return nil
        }
        return event
    }
}
