/// docs/design.md §14 in the engine: the focus, and input handed to the containers the router
/// picks.
extension ScrollEngine {
    /// The focused container's index; nil: none.
    public var focus: Int? { router.focus }

    /// Gives the focus to the container at `index` (nil: none, the default: every container
    /// without a parent gets all input). Input bound to containers by device is not affected.
    public mutating func setFocus(_ index: Int?) {
        precondition(index.map { $0 >= 0 && $0 < slots.count } ?? true, "no container \(index ?? -1)")
        router.setFocus(index)
    }

    /// Resolves the containers' parents by name (containers came or went, or a parent changed).
    mutating func relink() {
        router.link(names: slots.map(\.container.name), parentNames: slots.map(\.container.configuration.parent))
    }

    /// Hands an input event to the containers the router picks, each the part of it routed
    /// there, and publishes their states.
    mutating func route(_ event: ScrollEvent, shaping: InputShaping, _ emit: (Update) -> Void) {
        slots.withUnsafeBufferPointer { slots in
            router.route(event, devices: devices, slots: slots)
        }
        for index in slots.indices where !router.routed[index].isEmpty {
            slots[index].receive(event, axes: router.routed[index], shaping: shaping, devices: devices, rate: frameRate, index: index, emit)
        }
    }
}

extension ScrollEngine.Slot {
    /// Applies the part of an input event along `axes` (a hold whole), shaped for its device,
    /// and publishes the state. Never inlined, for the reason
    /// ``apply(_:shaping:devices:rate:index:_:)`` gives.
    @inline(never)
    mutating func receive(
        _ event: ScrollEvent, axes: Axis.Set, shaping: InputShaping, devices: [Int: String], rate: Double, index: Int,
        _ emit: (ScrollEngine.Update) -> Void
    ) {
        container.noteSource(of: event, devices: devices)
        if let part = event.restricted(to: axes) {
            container.handle(part, shaping: shaping)
        } else {
            container.handle(event, shaping: shaping)
        }
        syncFrames(at: event.time, rate: rate)
        emit(published(index: index, cause: .input))
    }
}
