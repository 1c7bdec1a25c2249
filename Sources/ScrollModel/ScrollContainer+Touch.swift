/// docs/design.md §25 in a container: a touch stops a motion as a hold does, drags 1:1 once past
/// the slop (the engine measures it and hands in the displacement), and flings on lift as a
/// finger release does.
extension ScrollContainer {
    /// A finger touched the glass over the container (or one nested in it): any motion stops
    /// where it is, phase ``ScrollPhase/tracking``, as `hold_begin` does.
    mutating func touchDown(device: Int, at time: Timestamp) {
        advance(to: time)
        defer { layout() }
        beginHold(device: device, at: time)
    }

    /// A motion that moves nothing (within the slop, or no change): the container's time still
    /// goes on to it, so the state it publishes carries the motion's time.
    mutating func touchStill(at time: Timestamp) {
        advance(to: time)
        layout()
    }

    /// The touch moved the content to `displacement` px from where it was at the down (per
    /// axis, `−s·(P − P₀) + touch_slop·u`), from `previous` at the touch's last event, along
    /// `axes` (the axes routed here). The offset becomes the raw position `y₀ + displacement`
    /// (rubber-banded beyond the edges); a container the drag reaches only now (a parent it is
    /// handed on to) follows from `previous` on. Each step is a sample of the velocity tracker.
    mutating func touchDrag(to displacement: Point, from previous: Point, axes: Axis.Set, device: Int, at time: Timestamp) {
        advance(to: time)
        defer { layout() }
        var step = Point.zero
        var moving = false
        for axis in Axis.allCases where scrolls(axis) && axes.contains(axis) {
            step[axis] = displacement[axis] - previous[axis]
            if step[axis] != 0 { moving = true }
        }
        guard moving else { return }
        if drag?.touchAnchor == nil {
            beginDrag(device: device)
            drag!.touchAnchor = drag!.raw - previous
        }
        tracker.add(step, at: time)
        // A touch drag is a drag (docs/design.md §22): with the lock on, nothing moves until the
        // steps have travelled 10 px, then only the locked axis follows the finger (the other
        // stays where it was at the down) or both do.
        if locksDirection { _ = drag!.lock.filter(step) }
        var raw = drag!.raw
        let anchor = drag!.touchAnchor!
        for axis in Axis.allCases where scrolls(axis) && axes.contains(axis) && followsTouch(axis) {
            raw[axis] = anchor[axis] + displacement[axis]
            position[axis] = shown(raw: raw[axis], axis)
        }
        drag!.raw = raw
        velocity = scaledVelocity()
    }

    /// Whether a touch drag moves `axis` now: always without the directional lock; with it, once
    /// decided, and then only the locked axis if it locked.
    @inline(__always)
    private func followsTouch(_ axis: Axis) -> Bool {
        guard locksDirection, let drag else { return true }
        switch drag.lock.decision {
        case .undecided: return false
        case .free: return true
        case let .locked(locked): return locked == axis
        }
    }

    /// The touch lifted (`cancelled`: libinput cancelled it): a drag it drove is released as a
    /// finger's scroll stop is (the lift a sample of zero; with `cancelled`, at zero velocity);
    /// a touch that never moved past the slop ends as a hold does, so a stopped fling stays
    /// stopped.
    mutating func touchLift(device: Int, cancelled: Bool, momentum: Bool, at time: Timestamp) {
        advance(to: time)
        defer { layout() }
        if let drag, drag.touchAnchor != nil, drag.device == device {
            if cancelled {
                tracker.reset()
                release(at: time, momentum: false)
            } else {
                tracker.add(.zero, at: time)
                release(at: time, momentum: momentum)
            }
        } else if holdDevice == device {
            endHold(at: time)
        }
    }
}
