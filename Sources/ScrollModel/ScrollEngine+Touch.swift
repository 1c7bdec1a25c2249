/// docs/design.md §25 in the engine: a touch goes to the container under it and stays there until
/// it lifts; the engine measures the slop and the 1:1 displacement in that container's pixels and
/// routes the touch's hold and drag along its chain (docs/design.md §14) like a touchpad's.
extension ScrollEngine {
    /// The one finger that scrolls (a second finger down while it is on the glass is ignored).
    public struct ActiveTouch: Hashable, Sendable {
        /// The touchscreen (the event's `dev`).
        public var device: Int
        /// The finger's slot on it.
        public var slot: Int
        /// The container the touch landed on; nil: none (the touch moves nothing).
        public var entry: ContainerID?
        /// `P₀`: the down point, normalized.
        public var start: Point
        /// `s`: the entry's container px per normalized unit, per axis, at the down.
        public var scale: Point
        /// `touch_slop` of the entry at the down, px.
        public var slop: Double
        /// `u`: the unit vector of `s·(P − P₀)` when it first exceeded the slop; nil before.
        public var direction: Point?
        /// The displacement last handed to the containers, px (`−s·(P − P₀) + slop·u`).
        public var displacement: Point = .zero
        /// Every container the touch stopped or dragged: its lift reaches them.
        public var reached: [ContainerID] = []
    }

    /// Applies a touch event (the engine's clock is at its time): a down picks the container
    /// under it and stops its motion, a motion drags once past the slop, a lift or cancel ends
    /// the drag. Events of any finger but the active one are ignored.
    mutating func touch(_ event: ScrollEvent, _ emit: (Update) -> Void) {
        switch event.kind {
        case let .touchDown(slot, point): touchDown(event, slot: slot, at: point, emit)
        case let .touchMotion(slot, point): touchMotion(event, slot: slot, to: point, emit)
        case .touchUp(let slot), .touchCancel(let slot): touchLift(event, slot: slot, emit)
        default: return
        }
    }

    /// A finger lands: the container under it (if any) is the touch's, and it stops there.
    private mutating func touchDown(_ event: ScrollEvent, slot: Int, at point: Point, _ emit: (Update) -> Void) {
        guard touch == nil else { return }
        let entry = touchTarget(at: point, device: event.device)
        var active = ActiveTouch(device: event.device, slot: slot, entry: entry.map { slots[$0].id }, start: point, scale: Point(x: 1, y: 1), slop: 0)
        if let entry, let frame = slots[entry].container.configuration.touchFrame {
            let size = slots[entry].container.containerSize
            active.scale = Point(x: size.width / frame.width, y: size.height / frame.height)
            active.slop = slots[entry].container.configuration.physics.touchSlop
        }
        touch = active
        guard let entry else { return }
        // It stops what the finger lands on as resting fingers on a touchpad do.
        let hold = ScrollEvent(time: event.time, device: event.device, kind: .holdBegin(fingers: 1))
        router.clearRouted()
        slots.withUnsafeBufferPointer { router.route(hold, from: entry, slots: $0) }
        var reached: [ContainerID] = []
        for index in slots.indices where !router.routed[index].isEmpty {
            reached.append(slots[index].id)
            slots[index].touched(event, devices: devices, rate: frameRate, index: index, emit) { container in
                container.touchDown(device: event.device, at: event.time)
            }
        }
        touch!.reached = reached
    }

    /// The touch's finger moves: nothing below the slop, then a 1:1 drag along the chain.
    private mutating func touchMotion(_ event: ScrollEvent, slot: Int, to point: Point, _ emit: (Update) -> Void) {
        guard var active = touch, active.device == event.device, active.slot == slot,
              let id = active.entry, let entry = index(of: id) else { return }
        let moved = Point(x: active.scale.x * (point.x - active.start.x), y: active.scale.y * (point.y - active.start.y))
        if active.direction == nil {
            let distance = (moved.x * moved.x + moved.y * moved.y).squareRoot()
            guard distance > active.slop, distance.isFinite else {
                // Below the slop nothing moves; the container still hears of its input.
                slots[entry].touched(event, devices: devices, rate: frameRate, index: entry, emit) { $0.touchStill(at: event.time) }
                return
            }
            active.direction = Point(x: moved.x / distance, y: moved.y / distance)
        }
        let u = active.direction!
        let displacement = Point(x: -moved.x + active.slop * u.x, y: -moved.y + active.slop * u.y)
        let previous = active.displacement
        active.displacement = displacement
        let step = AxisValues(
            x: displacement.x != previous.x ? displacement.x - previous.x : nil,
            y: displacement.y != previous.y ? displacement.y - previous.y : nil
        )
        guard step.x != nil || step.y != nil else {
            touch = active
            slots[entry].touched(event, devices: devices, rate: frameRate, index: entry, emit) { $0.touchStill(at: event.time) }
            return
        }
        // The drag goes along the chain as a touchpad's would (latching, `overscroll`).
        let drag = ScrollEvent(time: event.time, device: event.device, kind: .finger(step))
        router.clearRouted()
        slots.withUnsafeBufferPointer { router.route(drag, from: entry, slots: $0) }
        for index in slots.indices where !router.routed[index].isEmpty {
            let axes = router.routed[index]
            if !active.reached.contains(slots[index].id) { active.reached.append(slots[index].id) }
            slots[index].touched(event, devices: devices, rate: frameRate, index: index, emit) { container in
                container.touchDrag(to: displacement, from: previous, axes: axes, device: event.device, at: event.time)
            }
        }
        touch = active
    }

    /// The touch's finger lifts (or the touch is cancelled): every container it reached is let go.
    private mutating func touchLift(_ event: ScrollEvent, slot: Int, _ emit: (Update) -> Void) {
        guard let active = touch, active.device == event.device, active.slot == slot else { return }
        touch = nil
        guard let id = active.entry else { return }
        if let entry = index(of: id) { router.endTouch(from: entry, device: event.device) }
        let cancelled = if case .touchCancel = event.kind { true } else { false }
        let momentum = shaping(forDevice: event.device).momentum
        for id in active.reached {
            guard let index = index(of: id) else { continue }
            slots[index].touched(event, devices: devices, rate: frameRate, index: index, emit) { container in
                container.touchLift(device: event.device, cancelled: cancelled, momentum: momentum, at: event.time)
            }
        }
    }

    /// The container a touch at `point` (normalized) lands on: among those not paused, not bound
    /// to other devices, whose `touch_frame` contains it, the deepest in its docs/design.md §14 chain, and of
    /// equally deep ones the one added last; nil: none.
    func touchTarget(at point: Point, device: Int) -> Int? {
        var best: Int?
        var bestDepth = -1
        for index in slots.indices {
            let container = slots[index].container
            guard !slots[index].isPaused, let frame = container.configuration.touchFrame,
                  point.x >= frame.minX, point.x <= frame.maxX, point.y >= frame.minY, point.y <= frame.maxY
            else { continue }
            let bound = container.configuration.devices
            if !bound.isEmpty {
                guard let name = devices[device], bound.contains(name) else { continue }
            }
            var depth = 0
            var parent = index < router.parents.count ? router.parents[index] : -1
            while parent >= 0, depth < slots.count {
                depth += 1
                parent = router.parents[parent]
            }
            if depth >= bestDepth {
                best = index
                bestDepth = depth
            }
        }
        return best
    }
}

extension ScrollEngine.Slot {
    /// Applies part of a touch to the container with `body` and publishes the state. Never
    /// inlined, for the reason ``apply(_:shaping:devices:rate:index:_:)`` gives.
    @inline(never)
    mutating func touched(
        _ event: ScrollEvent, devices: [Int: String], rate: Double, index: Int,
        _ emit: (ScrollEngine.Update) -> Void, _ body: (inout ScrollContainer) -> Void
    ) {
        container.noteSource(of: event, devices: devices)
        body(&container)
        syncFrames(at: event.time, rate: rate)
        emit(published(index: index, cause: .input))
    }
}
