/// Routes input to containers and runs their frames and timers on a virtual clock.
///
/// The engine owns time but never reads a clock: the caller hands it events (which carry their
/// libinput timestamps) and asks it to `advance(to:)` a moment. A live daemon advances to the
/// wall clock when the next deadline's timer fires; replay advances to each event's time. Both
/// therefore compute exactly the same states.
public struct ScrollEngine: Sendable {
    /// Why a state was published.
    public enum Cause: Hashable, Sendable {
        /// An input event routed to the container (even one that changed nothing).
        case input
        /// A frame tick while the container moves (a wheel timer due at the same instant included).
        case frame
        /// The one-shot wheel timer alone: `wheel_idle` of silence after the last wheel event.
        case timer
    }

    /// A state the engine publishes, and why.
    public struct Update: Sendable {
        /// The container's index, as ``ScrollEngine/add(_:)`` returned it (it moves down when a
        /// container before it is removed).
        public var container: Int
        /// The container's identity, which never changes.
        public var id: ContainerID
        /// The number of states the container has published, this one included
        /// (docs/design.md §4's `seq`).
        public var seq: Int
        /// The container's state at the moment the update describes.
        public var state: ScrollState
        /// What produced it.
        public var cause: Cause
        /// Whether input was withheld from the container (`pause`, docs/design.md §19).
        public var paused: Bool
    }

    /// One container with its frame grid and whether input reaches it.
    public struct Slot: Sendable {
        /// The container's identity (``ScrollEngine/add(_:)`` gives it).
        public let id: ContainerID
        /// The number of states the container has published: every ``Update`` counts one, so
        /// the next has one more (docs/design.md §4).
        public internal(set) var seq = 0
        /// The container itself; change it through ``ScrollEngine/update(container:at:_:)``.
        public internal(set) var container: ScrollContainer
        /// The frame grid while the container moves; nil at rest, when no frames run.
        public internal(set) var frames: FrameClock?
        /// Whether input is withheld (the `pause` request). A paused container still runs its
        /// frames and timers, and a removed device still ends its gestures.
        public var isPaused = false

        /// The earlier of the next frame tick and the wheel timer; nil when neither is armed.
        /// Stored, and kept by `syncFrames(at:rate:)` (which runs after every change to the
        /// container), so that finding what is due reads one word per slot.
        public private(set) var deadline: Timestamp?
        /// Where the container was after the last change that left it within the state's
        /// limits: where one whose motion went non-finite, or past them, comes to rest.
        var lastPositionWithinLimits: Point

        init(container: ScrollContainer, id: ContainerID) {
            self.id = id
            self.container = container
            deadline = container.timerDeadline
            lastPositionWithinLimits = container.position
        }

        /// Starts a frame grid when the container begins to move and drops it when it stops.
        /// Runs after every change to the container, so it is also where a runaway motion is
        /// caught before its state is published (``ScrollContainer/isWithinStateMagnitude``).
        mutating func syncFrames(at time: Timestamp, rate: Double) {
            if container.isWithinStateMagnitude {
                lastPositionWithinLimits = container.position
            } else {
                container.restAfterRunawayMotion(at: lastPositionWithinLimits)
            }
            if container.isMoving {
                if frames == nil { frames = FrameClock(anchor: time, rate: rate) }
            } else {
                frames = nil
            }
            let frame = frames?.nextTick
            let timer = container.timerDeadline
            switch (frame, timer) {
            case let (f?, t?): deadline = min(f, t)
            case let (f?, nil): deadline = f
            case let (nil, t?): deadline = t
            case (nil, nil): deadline = nil
            }
        }

        /// Runs what is due at `time` (a frame tick, the wheel timer, or both).
        mutating func fire(at time: Timestamp, rate: Double) -> Cause {
            var cause = Cause.timer
            if let tick = frames?.nextTick, tick == time {
                container.tick(at: time)
                frames!.advance()
                cause = .frame
            }
            if let timer = container.timerDeadline, timer <= time {
                container.fireTimer(at: time)
            }
            syncFrames(at: time, rate: rate)
            return cause
        }

        /// Applies an input event when it is routed here and publishes the state. The update
        /// is built in the call to `emit`: a state is 160 bytes, and returning one (through an
        /// optional, at that) copies it twice per event.
        ///
        /// Never inlined: inlined into ``ScrollEngine/handle(_:_:)``'s loop over the slots (which
        /// a smaller `state` invites), the compiler copies the whole slot (a kilobyte, memcpy
        /// and retains) to read the state from, on every event: callgrind, wheel 1079 → 1090
        /// instructions per event.
        @inline(never)
        mutating func apply(_ event: ScrollEvent, shaping: InputShaping, devices: [Int: String], rate: Double, index: Int, _ emit: (Update) -> Void) {
            guard !isPaused else { return }
            let bound = container.configuration.devices
            if !bound.isEmpty {
                guard let name = devices[event.device], bound.contains(name) else { return }
            }
            // An axis that fits under `bounce = basedOnSize` takes nothing: no state (docs/design.md §22). The
            // setting is tested here first: calling out with the container made a copy of all of
            // it (1.4 KB) for every event.
            if container.configuration.gestures.bounce == .basedOnSize, container.fitsAndIgnores(event) { return }
            container.noteSource(of: event, devices: devices)
            container.handle(event, shaping: shaping)
            syncFrames(at: event.time, rate: rate)
            emit(published(index: index, cause: .input))
        }

        /// The container's state as its next publication, numbered.
        mutating func published(index: Int, cause: Cause) -> Update {
            seq += 1
            return Update(container: index, id: id, seq: seq, state: container.state, cause: cause, paused: isPaused)
        }

        /// Runs what is due at `time` and publishes the state.
        mutating func fire(at time: Timestamp, rate: Double, index: Int, _ emit: (Update) -> Void) {
            let cause = fire(at: time, rate: rate)
            emit(published(index: index, cause: cause))
        }
    }

    /// Frames per second of new frame grids (`frame_rate`, default 120); a grid already running
    /// keeps the rate it started with.
    public var frameRate: Double
    /// The containers in the order they were added; a container's index never changes.
    public internal(set) var slots: [Slot] = []
    /// Device names by id, from `deviceAdded`, for containers bound to devices.
    public internal(set) var devices: [Int: String] = [:]
    /// Whether each announced device is a touchpad (true), another pointer that scrolls (false)
    /// or neither (absent), from its capabilities: the class a desktop's settings name.
    public internal(set) var touchpads: [Int: Bool] = [:]
    /// The `[input]` shaping rules (docs/design.md §18); set them with ``setShapingRules(_:)``.
    public internal(set) var shapingRules = InputShapingRules()
    /// Each device's shaping and wheel history (from `deviceAdded`, or its first event), in no
    /// particular order (a removal moves the last one into its place). An event searches a few
    /// in order, cheaper than hashing an id; past a few, ``shaperPlaces`` finds its device's.
    public internal(set) var shapers: [DeviceShaper] = []
    /// Where each device's shaper is in ``shapers``: a device announced or removed costs the
    /// same however many are present (a log may announce thousands, and each announcement
    /// searching them all made its replay quadratic); events use it past a few devices.
    var shaperPlaces: [Int: Int] = [:]
    /// Whether any rule shapes anything: without rules no event is looked at twice.
    var isShaping = false
    /// The identity the next container added gets: identities are never reused, and grow with
    /// the position.
    public private(set) var nextID = 0
    /// µs: the latest moment the engine has reached (events, frames, `advance(to:)`);
    /// `Timestamp.min` before anything happened. Later events are never applied before it.
    public private(set) var now: Timestamp = .min
    /// Where input goes: the focus and the nested containers' chains (docs/design.md §14).
    public internal(set) var router = InputRouter()
    /// The finger on a touchscreen that scrolls (docs/design.md §25); nil: none.
    public internal(set) var touch: ActiveTouch?

    /// An engine with no containers; a `frameRate` that is not positive becomes 120.
    public init(frameRate: Double = 120) {
        self.frameRate = frameRate > 0 ? frameRate : 120
    }

    // MARK: Containers

    /// Adds a container (its frames start when it first moves) and returns its index, used by
    /// every other call and in ``Update/container``.
    @discardableResult
    public mutating func add(_ container: ScrollContainer) -> Int {
        slots.append(Slot(container: container, id: ContainerID(rawValue: nextID)))
        nextID += 1
        if router.namesParents || container.configuration.parent != nil { relink() } else { router.appendUnparented() }
        return slots.count - 1
    }

    /// The index of the first container called `name`, nil when there is none.
    public func index(of name: String) -> Int? {
        slots.firstIndex { $0.container.name == name }
    }

    /// A copy of the container at `index` (read-only: mutate through
    /// ``update(container:at:_:)``).
    public subscript(index: Int) -> ScrollContainer { slots[index].container }

    /// Removes the container at `index`; those after it move down one place (their indices in
    /// later updates are one less).
    public mutating func remove(container index: Int) {
        slots.remove(at: index)
        let nested = router.hasNesting
        router.remove(container: index)
        // Without nesting every container's parent is none, and a removal links none anew:
        // linking by name (a dictionary of every name) per removal made the close of a
        // connection that owned a thousand containers quadratic in hashing.
        if nested { relink() } else { router.parents.remove(at: index) }
    }

    /// Pauses (`true`) or resumes input routing to the container at `index`; see
    /// ``Slot/isPaused``.
    public mutating func setPaused(_ paused: Bool, container index: Int) {
        slots[index].isPaused = paused
    }

    /// Ends the finger, continuous or hold gesture under way on the container at `index` as its
    /// device's scroll stop would (a fling may follow, as the device's shaping says): a pause
    /// withholds input from it, so that stop would never reach it, and it would stay
    /// `interacting` for good. A wheel gesture ends by itself, on silence.
    public mutating func endGesture(container index: Int, at time: Timestamp) {
        let container = slots[index].container
        guard let device = container.drag?.device ?? container.holdDevice else { return }
        slots[index].container.handle(ScrollEvent(time: time, device: device, kind: .deviceRemoved), shaping: shaping(forDevice: device))
    }

    /// Runs `body` on a container at `time` (a programmatic scroll, a configure), keeping its
    /// frame grid in step, and returns the state to publish (``publish(container:)`` numbers it).
    public mutating func update(
        container index: Int,
        at time: Timestamp,
        _ body: (inout ScrollContainer) -> Void
    ) -> ScrollState {
        let parent = slots[index].container.configuration.parent
        body(&slots[index].container)
        if slots[index].container.configuration.parent != parent { relink() }
        slots[index].syncFrames(at: time, rate: frameRate)
        return slots[index].container.state
    }

    /// Publishes the container's state as it is: after an ``update(container:at:_:)`` that
    /// changed it, or a request that changed how it is described (a pause, its creation).
    public mutating func publish(container index: Int) -> Update {
        slots[index].published(index: index, cause: .input)
    }

    /// Numbers the container's next state after `seq` at least (a restart takes its numbering
    /// back, docs/design.md §16).
    public mutating func continueNumbering(container index: Int, after seq: Int) {
        slots[index].seq = Swift.max(slots[index].seq, seq)
    }

    /// The position of the container `id` in ``slots``; nil once it is removed.
    public func index(of id: ContainerID) -> Int? {
        // Identities grow with the position: a binary search over the slots.
        var low = 0
        var high = slots.count
        while low < high {
            let middle = (low + high) / 2
            if slots[middle].id < id { low = middle + 1 } else { high = middle }
        }
        return low < slots.count && slots[low].id == id ? low : nil
    }

    // MARK: Time

    /// The earliest frame tick or timer of any container; nil when nothing moves and no timer
    /// is armed, which is when a daemon should sleep in the kernel.
    public var nextDeadline: Timestamp? {
        var next: Timestamp?
        for index in slots.indices {
            if let d = slots[index].deadline, next == nil || d < next! { next = d }
        }
        return next
    }

    /// Runs every frame tick and timer due at or before `time`, in time order, publishing one
    /// state per container and instant.
    ///
    /// Slots are only touched through their own mutating methods and stored properties: a
    /// `Slot` is large, and reading a computed property of `slots[i]` from out here can copy
    /// the whole slot (and retain all it holds) on every event.
    public mutating func advance(to time: Timestamp, _ emit: (Update) -> Void) {
        runDeadlines(dueBy: time, emit)
        now = max(now, time)
    }

    /// Runs every frame tick and timer due at or before `time`, as ``advance(to:_:)`` does,
    /// but leaves the clock at the last one that ran: an event stamped between that and `time`
    /// that reaches the engine afterwards still applies at its own time, as a replay of the
    /// recording applies it. (A live daemon asks its input thread for everything stamped before
    /// a moment, then runs the frames due by then; an event the kernel stamped just before that
    /// moment may still have been on its way into the device's buffer.)
    ///
    /// One pass over the slots finds the earliest instant due, a second fires every container
    /// due then, in index order: as one at a time in (time, index) order would, since firing
    /// one container changes no other and leaves its next deadline later. A frame of N
    /// containers moving together costs two passes, not N.
    public mutating func runDeadlines(dueBy time: Timestamp, _ emit: (Update) -> Void) {
        while true {
            var earliest: Timestamp?
            for index in slots.indices {
                if let d = slots[index].deadline, d <= time, d < earliest ?? .max { earliest = d }
            }
            guard let dueTime = earliest else { break }
            now = max(now, dueTime)
            for index in slots.indices where slots[index].deadline == dueTime {
                slots[index].fire(at: dueTime, rate: frameRate, index: index, emit)
            }
        }
    }

    /// Applies an event at its time, after every deadline before it, and publishes the state of
    /// each container it concerned.
    public mutating func handle(_ event: ScrollEvent, _ emit: (Update) -> Void) {
        // Time never runs backwards: an event stamped before what the engine has already shown
        // (possible live, when a request ran frames first) is applied now. (Copying an event
        // costs a retain and a large copy, so only the rare late one is copied.)
        guard event.time >= now else {
            var late = event
            late.time = now
            return handle(late, emit)
        }
        advance(to: event.time, emit)
        switch event.kind {
        case let .deviceAdded(name, capabilities):
            devices[event.device] = name
            touchpads[event.device] = DesktopInput.isTouchpad(capabilities)
            deviceAppeared(event.device, name: name)
            return
        case .deviceRemoved:
            let shaping = shaping(forDevice: event.device)
            for index in slots.indices {
                let ended = slots[index].container.handle(event, shaping: shaping)
                slots[index].syncFrames(at: event.time, rate: frameRate)
                if ended { emit(slots[index].published(index: index, cause: .input)) }
            }
            devices[event.device] = nil
            touchpads[event.device] = nil
            router.deviceRemoved(event.device)
            if touch?.device == event.device { touch = nil }
            removeShaper(of: event.device)
        case .touchDown, .touchMotion, .touchUp, .touchCancel:
            touch(event, emit)
        default:
            // Shaped once here (docs/design.md §18), so every container sees the same event; the
            // copy a shaped event costs is made only for a device that rules shape.
            if let shaper = activeShaper(for: event.device) {
                let shaped = shapers[shaper].shaped(event)
                deliver(shaped, shaping: shapers[shaper].shaping, emit)
            } else {
                deliver(event, shaping: .identity, emit)
            }
        }
    }

    /// Hands an input event to its containers: with a focus or nested containers, each axis to
    /// the container the router picks (docs/design.md §14); otherwise to every container.
    @inline(__always)
    mutating func deliver(_ event: ScrollEvent, shaping: InputShaping, _ emit: (Update) -> Void) {
        guard !router.isActive else { return route(event, shaping: shaping, emit) }
        for index in slots.indices {
            slots[index].apply(event, shaping: shaping, devices: devices, rate: frameRate, index: index, emit)
        }
    }

    /// Whether nothing moves and no timer is armed anywhere.
    public var isIdle: Bool { nextDeadline == nil }
}
