/// What is read of the containers without applying anything: observations and samples.
extension ScrollEngine {
    /// The value of `observation` in `state`, a state the container at `index` published (read
    /// in place: no copy of the container).
    public func value(of observation: ScrollObservation, container index: Int, in state: ScrollState) -> ObservationValue {
        // Every key but `rowVisible` is the state's alone. That one reads the three fields it
        // needs through a pointer: `slots[index]` (even through the buffer's subscript) copies
        // the whole slot — a kilobyte, and a retain and release of everything it holds — which
        // cost ~110 ns per observation per state, 90 % of it.
        switch observation {
        case .rowVisible, .source: break
        default: return observation.value(in: state, rows: nil, header: nil, listAxis: .vertical)
        }
        precondition(index >= 0 && index < slots.count, "no container \(index)")
        return slots.withUnsafeBufferPointer { buffer in
            let slot = buffer.baseAddress! + index
            return observation.value(
                in: state,
                rows: slot.pointee.container.rowLayout,
                header: slot.pointee.container.configuration.header,
                listAxis: slot.pointee.container.configuration.listAxis,
                source: slot.pointee.container.source
            )
        }
    }

    /// A container's state at `time` from the closed forms of its running motions, after every
    /// frame and timer due by then. Sampling decides nothing that frames would not.
    public mutating func sample(container index: Int, at time: Timestamp) -> ScrollState {
        advance(to: time) { _ in }
        return slots[index].container.state(at: time)
    }

    /// What ``sample(container:at:)`` gives, computed on a copy of that one container (its
    /// frames and timer run on the copy): a read costs the same however many containers there
    /// are, since containers never affect one another's motion.
    public func sampled(container index: Int, at time: Timestamp) -> ScrollState {
        var slot = slots[index]
        let time = Swift.max(time, now)
        while let deadline = slot.deadline, deadline <= time {
            _ = slot.fire(at: deadline, rate: frameRate)
        }
        // Between frames the curves' closed forms are evaluated without the check that frames
        // get (`syncFrames`): a read never returns a number past the state's limits either.
        let lastFrame = slot.container.state
        let state = slot.container.state(at: time)
        return slot.container.isWithinStateMagnitude ? state : lastFrame
    }
}
