/// One device's ``InputShaping`` and what it remembers between that device's events: the last
/// wheel event per axis (for acceleration) and the `detent` accumulator per axis.
///
/// The engine keeps one per device and shapes each event once, before routing it: every
/// container then sees the same shaped event, and a detent step is counted once however many
/// containers the event reaches.
public struct DeviceShaper: Sendable {
    /// The device (the events' `device`).
    public let device: Int
    /// The device's settings, resolved from the rules for its name.
    public internal(set) var shaping: InputShaping
    /// The last wheel event along each axis: when, and its direction (±1).
    var lastWheelX: (time: Timestamp, direction: Double)?
    var lastWheelY: (time: Timestamp, direction: Double)?
    /// v120 accumulated towards the next detent step, per axis (shaped by speed and
    /// acceleration; its sign is the direction being counted).
    var detentX = 0.0
    var detentY = 0.0

    /// A device with no wheel history.
    public init(device: Int, shaping: InputShaping) {
        self.device = device
        self.shaping = shaping
    }

    /// New settings (a reload): the history stays, so acceleration and a detent count carry on;
    /// a detent count is dropped when `detent` is turned off.
    mutating func update(_ new: InputShaping) {
        if !new.detent {
            detentX = 0
            detentY = 0
        }
        shaping = new
    }

    /// `event` shaped (docs/design.md §18): wheel v120 times the axis' speed and the acceleration
    /// factor, then quantised to whole detents when `detent` is on (fractions become 0, which
    /// moves nothing); finger and continuous deltas times the axis' speed. Built anew rather
    /// than copied and changed: copying an event goes through its enum's outlined copy.
    mutating func shaped(_ event: ScrollEvent) -> ScrollEvent {
        switch event.kind {
        case let .wheel(v120, degrees):
            var shaped = v120
            if let y = v120.y, y != 0 { shaped.y = wheel(y, .vertical, at: event.time) }
            if let x = v120.x, x != 0 { shaped.x = wheel(x, .horizontal, at: event.time) }
            let turned = shaping.natural ? degrees.map { AxisValues(x: $0.x.map { -$0 }, y: $0.y.map { -$0 }) } : degrees
            return ScrollEvent(time: event.time, device: event.device, kind: .wheel(v120: shaped, degrees: turned))
        case let .finger(delta):
            return ScrollEvent(time: event.time, device: event.device, kind: .finger(scaled(delta)))
        case let .continuous(delta):
            return ScrollEvent(time: event.time, device: event.device, kind: .continuous(scaled(delta)))
        default:
            return event
        }
    }

    @inline(__always)
    func scaled(_ delta: AxisValues) -> AxisValues {
        AxisValues(x: delta.x.map { $0 * shaping.factor(.horizontal) }, y: delta.y.map { $0 * shaping.factor(.vertical) })
    }

    /// One axis of a wheel event: speed, acceleration, detent.
    mutating func wheel(_ value: Double, _ axis: Axis, at time: Timestamp) -> Double {
        // Natural scrolling first: acceleration and detents count the direction it moves.
        let value = shaping.natural ? -value : value
        let direction: Double = value > 0 ? 1 : -1
        var factor = 1.0
        let last = axis == .horizontal ? lastWheelX : lastWheelY
        if let last, last.direction == direction, time >= last.time {
            factor = shaping.accelerationFactor(afterMilliseconds: Double(time - last.time) / 1000)
        }
        if axis == .horizontal { lastWheelX = (time, direction) } else { lastWheelY = (time, direction) }
        let scaled = value * shaping.speed(axis) * factor
        guard shaping.detent else { return scaled }
        var count = axis == .horizontal ? detentX : detentY
        // A change of direction restarts the count.
        if count != 0 && (count > 0) != (scaled > 0) { count = 0 }
        count += scaled
        let steps = (count / 120).rounded(.towardZero)
        count -= steps * 120
        if axis == .horizontal { detentX = count } else { detentY = count }
        return steps * 120
    }
}
