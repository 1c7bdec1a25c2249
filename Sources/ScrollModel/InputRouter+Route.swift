extension InputRouter {
    /// The containers as the router reads them: in place, never copied (a slot is a kilobyte).
    typealias Slots = UnsafeBufferPointer<ScrollEngine.Slot>

    /// Decides where the input event goes and sets ``routed`` (device events are not routed:
    /// the engine hands them to every container). Reads the containers as they are at the
    /// event's time; changes only the latches.
    mutating func route(_ event: ScrollEvent, devices: [Int: String], slots: Slots) {
        for index in routed.indices { routed[index] = [] }
        // A device bound to containers by name drives those, whatever the focus.
        var name: String?
        for index in slots.indices where !slots[index].container.configuration.devices.isEmpty {
            name = devices[event.device]
            break
        }
        if let focus {
            var bound = false
            if let name {
                for index in slots.indices where slots[index].container.configuration.devices.contains(name) {
                    bound = true
                    route(event, from: index, slots: slots)
                }
            }
            if !bound { route(event, from: focus, slots: slots) }
        } else {
            for index in slots.indices {
                let bound = slots[index].container.configuration.devices
                let given = bound.isEmpty ? parents[index] < 0 : name.map { bound.contains($0) } ?? false
                if given {
                    route(event, from: index, slots: slots)
                }
            }
        }
    }

    /// Routes the event as given to `entry`, axis by axis (``routed`` is not cleared first).
    mutating func route(_ event: ScrollEvent, from entry: Int, slots: Slots) {
        switch event.kind {
        case .wheel(let v120, _):
            route(v120, from: entry, slots: slots) { router, axis, value in
                router.wheel(value, along: axis, from: entry, at: event.time, slots: slots)
            }
        case .finger(let delta), .continuous(let delta):
            route(delta, from: entry, slots: slots) { router, axis, value in
                router.drag(value, along: axis, from: entry, device: event.device, slots: slots)
            }
        case .holdBegin, .holdEnd:
            // A hold has no direction: along each axis some container of the chain scrolls, it
            // goes where that axis' last gesture went (its motion is what resting fingers
            // stop), and then ends where it began.
            let begins = if case .holdBegin = event.kind { true } else { false }
            var reached = false
            for axis in Axis.allCases {
                var target = begins ? latches[entry][axis].last : latches[entry][axis].hold.target
                if !isAvailable(target, slots) { target = scroller(along: axis, from: entry, slots) }
                latches[entry][axis].hold = begins ? Latch(target: target, device: event.device) : Latch()
                mark(target, axis == .horizontal ? .horizontal : .vertical)
                reached = reached || target >= 0
            }
            if !reached { mark(nearest(along: nil, from: entry, slots), .both) }
        case .deviceAdded, .deviceRemoved, .touchDown, .touchMotion, .touchUp, .touchCancel:
            // Touches are routed by where they land (``ScrollEngine/touch(_:_:)``), which then
            // routes their holds and drags along the chain from there.
            break
        }
    }

    /// Each present axis of `values` to the container `decide` picks; an event with no axis at
    /// all goes whole to the first container of the chain that takes input.
    @inline(__always)
    private mutating func route(
        _ values: AxisValues, from entry: Int, slots: Slots,
        _ decide: (inout InputRouter, Axis, Double) -> Int
    ) {
        guard values.x != nil || values.y != nil else {
            return mark(nearest(along: nil, from: entry, slots), .both)
        }
        if let x = values.x { mark(decide(&self, .horizontal, x), .horizontal) }
        if let y = values.y { mark(decide(&self, .vertical, y), .vertical) }
    }

    @inline(__always)
    private mutating func mark(_ target: Int, _ axes: Axis.Set) {
        if target >= 0 { routed[target].formUnion(axes) }
    }

    // MARK: Gestures

    /// A finger or continuous delta: a non-zero one continues the latched drag or latches a
    /// new one; a zero one (the scroll stop) ends it there.
    private mutating func drag(_ value: Double, along axis: Axis, from entry: Int, device: Int, slots: Slots) -> Int {
        let latched = latches[entry][axis].drag.target
        guard value != 0 else {
            latches[entry][axis].drag = Latch()
            return isAvailable(latched, slots) ? latched : nearest(along: axis, from: entry, slots)
        }
        if isAvailable(latched, slots) { return latched }
        let target = latch(along: axis, towardsEnd: value > 0, from: entry, slots)
        latches[entry][axis].drag = Latch(target: target, device: device)
        latches[entry][axis].last = target
        return target
    }

    /// A wheel click: it continues the latched wheel gesture until that container's
    /// `wheel_idle` has passed since the last click, else latches a new one.
    private mutating func wheel(_ value: Double, along axis: Axis, from entry: Int, at time: Timestamp, slots: Slots) -> Int {
        let latched = latches[entry][axis].wheel.target
        let running = isAvailable(latched, slots) && time < latches[entry][axis].wheelEnd
        guard value != 0 else { return running ? latched : nearest(along: axis, from: entry, slots) }
        let target = running ? latched : latch(along: axis, towardsEnd: value > 0, from: entry, slots)
        guard target >= 0 else { return target }
        let idle = slots[target].container.configuration.physics.wheelIdle
        latches[entry][axis].wheel = Latch(target: target, device: 0)
        latches[entry][axis].wheelEnd = time + Timestamp((idle * 1_000_000).rounded())
        latches[entry][axis].last = target
        return target
    }

    // MARK: Chains

    /// Where a new gesture along `axis` latches: the first container of the chain that scrolls
    /// the axis, unless it rests at the edge the gesture pushes towards and its `overscroll` is
    /// `auto` — then the nearest ancestor that can move that way, if any.
    private func latch(along axis: Axis, towardsEnd: Bool, from entry: Int, _ slots: Slots) -> Int {
        let first = nearest(along: axis, from: entry, slots)
        guard first >= 0 else { return first }
        guard slots[first].container.takesInput(axis),
              slots[first].container.configuration.overscroll == .auto,
              slots[first].container.restsAtEdge(axis, towardsEnd: towardsEnd)
        else { return first }
        var next = parents[first]
        var steps = 0
        while next >= 0, steps < parents.count {
            if !slots[next].isPaused, slots[next].container.takesInput(axis),
               slots[next].container.canMove(axis, towardsEnd: towardsEnd) {
                return next
            }
            next = parents[next]
            steps += 1
        }
        return first
    }

    /// The first container of `entry`'s chain, paused ones skipped, that scrolls `axis`; when
    /// none does (or `axis` is nil), the first that is not paused, which ignores the axis as a
    /// lone container would; -1 when every one is paused.
    private func nearest(along axis: Axis?, from entry: Int, _ slots: Slots) -> Int {
        var fallback = -1
        var current = entry
        var steps = 0
        while current >= 0, steps <= parents.count {
            if !slots[current].isPaused {
                guard let axis else { return current }
                if slots[current].container.takesInput(axis) { return current }
                if fallback < 0 { fallback = current }
            }
            current = parents[current]
            steps += 1
        }
        return fallback
    }

    /// The first container of `entry`'s chain, paused ones skipped, that scrolls `axis`; -1
    /// when none does.
    private func scroller(along axis: Axis, from entry: Int, _ slots: Slots) -> Int {
        let first = nearest(along: axis, from: entry, slots)
        return first >= 0 && slots[first].container.takesInput(axis) ? first : -1
    }

    /// Whether a latched index still names a container that takes input.
    @inline(__always)
    private func isAvailable(_ target: Int, _ slots: Slots) -> Bool {
        target >= 0 && target < slots.count && !slots[target].isPaused
    }
}

extension InputRouter {
    /// Clears ``routed`` (before routing a touch's part from its entry).
    mutating func clearRouted() {
        for index in routed.indices { routed[index] = [] }
    }

    /// A touch that began on `entry` ended: the drags and holds it latched from there end.
    mutating func endTouch(from entry: Int, device: Int) {
        guard entry >= 0, entry < latches.count else { return }
        for axis in Axis.allCases {
            if latches[entry][axis].drag.device == device { latches[entry][axis].drag = Latch() }
            if latches[entry][axis].hold.device == device { latches[entry][axis].hold = Latch() }
        }
    }
}
