import CLibinput
import ScrollModel

/// Turns libinput's scroll and hold events into `ScrollEvent`s, exactly as the event log
/// records them: an axis is present when `has_axis` says so, values keep libinput's sign
/// (natural scrolling is already applied by libinput and is never applied again), and every
/// other event type (motion, buttons, the deprecated POINTER_AXIS, unknown future types) is
/// ignored.
///
/// A device's numbers are its maker's. libinput turns an axis range or a position no real
/// device has into numbers no log may hold: a touchscreen announcing INT32_MIN…INT32_MAX gets a
/// range of 0 (`max − min + 1` overflows) and positions of ±∞ or NaN, one whose fingers land
/// far outside its announced range gets positions of ±500 000 screens. What the mapper returns
/// is what the daemon applies and what its recording says, so it is made what a log can carry
/// (``loggable(_:)``): otherwise the recording held a touch at 1.8e308, which `scrolld replay`
/// refuses (exit 65), and a NaN recorded as 0 replayed otherwise than it was applied live.
struct InputEventMapper {
    /// Where a touch's normalized position may lie: the glass is 0…1, a touch just off it still
    /// reads (the event log accepts the same, docs/design.md §3).
    static let coordinates: ClosedRange<Double> = -1...2

    func map(_ event: OpaquePointer, type: libinput_event_type, device: Int) -> ScrollEvent? {
        mapRaw(event, type: type, device: device).map(Self.loggable)
    }

    /// `event` with every number one a log can carry: a touch's position within
    /// ``coordinates`` (NaN, which libinput gives for a finger at the minimum of a range it
    /// computed as 0, is that minimum, 0), an axis value finite (NaN as 0, ±∞ as the largest
    /// double of its sign, as the log's writer spells them).
    static func loggable(_ event: ScrollEvent) -> ScrollEvent {
        var event = event
        switch event.kind {
        case .wheel(let v120, let degrees): event.kind = .wheel(v120: finite(v120), degrees: degrees.map(finite))
        case .finger(let delta): event.kind = .finger(finite(delta))
        case .continuous(let delta): event.kind = .continuous(finite(delta))
        case .touchDown(let slot, let point): event.kind = .touchDown(slot: slot, at: onGlass(point))
        case .touchMotion(let slot, let point): event.kind = .touchMotion(slot: slot, at: onGlass(point))
        default: break
        }
        return event
    }

    static func finite(_ value: Double) -> Double {
        value.isFinite ? value : value.isNaN ? 0 : (value < 0 ? -.greatestFiniteMagnitude : .greatestFiniteMagnitude)
    }

    static func finite(_ values: AxisValues) -> AxisValues {
        AxisValues(x: values.x.map(finite), y: values.y.map(finite))
    }

    static func onGlass(_ point: Point) -> Point {
        func clamped(_ value: Double) -> Double {
            value.isNaN ? 0 : min(max(value, coordinates.lowerBound), coordinates.upperBound)
        }
        return Point(x: clamped(point.x), y: clamped(point.y))
    }

    func mapRaw(_ event: OpaquePointer, type: libinput_event_type, device: Int) -> ScrollEvent? {
        switch type {
        case LIBINPUT_EVENT_POINTER_SCROLL_WHEEL:
            let pointer = libinput_event_get_pointer_event(event)!
            let v120 = axes(pointer) { libinput_event_pointer_get_scroll_value_v120(pointer, $0) }
            let degrees = axes(pointer) { libinput_event_pointer_get_scroll_value(pointer, $0) }
            return ScrollEvent(time: Timestamp(libinput_event_pointer_get_time_usec(pointer)), device: device, kind: .wheel(v120: v120, degrees: degrees))
        case LIBINPUT_EVENT_POINTER_SCROLL_FINGER:
            let pointer = libinput_event_get_pointer_event(event)!
            let delta = axes(pointer) { libinput_event_pointer_get_scroll_value(pointer, $0) }
            return ScrollEvent(time: Timestamp(libinput_event_pointer_get_time_usec(pointer)), device: device, kind: .finger(delta))
        case LIBINPUT_EVENT_POINTER_SCROLL_CONTINUOUS:
            let pointer = libinput_event_get_pointer_event(event)!
            let delta = axes(pointer) { libinput_event_pointer_get_scroll_value(pointer, $0) }
            return ScrollEvent(time: Timestamp(libinput_event_pointer_get_time_usec(pointer)), device: device, kind: .continuous(delta))
        case LIBINPUT_EVENT_GESTURE_HOLD_BEGIN:
            let gesture = libinput_event_get_gesture_event(event)!
            return ScrollEvent(
                time: Timestamp(libinput_event_gesture_get_time_usec(gesture)), device: device,
                kind: .holdBegin(fingers: Int(libinput_event_gesture_get_finger_count(gesture)))
            )
        case LIBINPUT_EVENT_GESTURE_HOLD_END:
            let gesture = libinput_event_get_gesture_event(event)!
            return ScrollEvent(
                time: Timestamp(libinput_event_gesture_get_time_usec(gesture)), device: device,
                kind: .holdEnd(fingers: Int(libinput_event_gesture_get_finger_count(gesture)), cancelled: libinput_event_gesture_get_cancelled(gesture) != 0)
            )
        case LIBINPUT_EVENT_TOUCH_DOWN, LIBINPUT_EVENT_TOUCH_MOTION, LIBINPUT_EVENT_TOUCH_UP, LIBINPUT_EVENT_TOUCH_CANCEL:
            // docs/design.md §25: positions transformed to a 1 × 1 screen (normalized).
            let touch = libinput_event_get_touch_event(event)!
            let time = Timestamp(libinput_event_touch_get_time_usec(touch))
            // A single-touch device has no slots (-1): the seat's slot numbers its touch.
            var slot = Int(libinput_event_touch_get_slot(touch))
            if slot < 0 { slot = Int(libinput_event_touch_get_seat_slot(touch)) }
            slot = max(0, slot)
            switch type {
            case LIBINPUT_EVENT_TOUCH_UP:
                return ScrollEvent(time: time, device: device, kind: .touchUp(slot: slot))
            case LIBINPUT_EVENT_TOUCH_CANCEL:
                return ScrollEvent(time: time, device: device, kind: .touchCancel(slot: slot))
            default:
                let point = Point(x: libinput_event_touch_get_x_transformed(touch, 1), y: libinput_event_touch_get_y_transformed(touch, 1))
                let kind: ScrollEvent.Kind = type == LIBINPUT_EVENT_TOUCH_DOWN ? .touchDown(slot: slot, at: point) : .touchMotion(slot: slot, at: point)
                return ScrollEvent(time: time, device: device, kind: kind)
            }
        default:
            return nil
        }
    }

    func axes(_ pointer: OpaquePointer, _ value: (libinput_pointer_axis) -> Double) -> AxisValues {
        var result = AxisValues()
        if libinput_event_pointer_has_axis(pointer, LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL) != 0 {
            result.y = value(LIBINPUT_POINTER_AXIS_SCROLL_VERTICAL)
        }
        if libinput_event_pointer_has_axis(pointer, LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL) != 0 {
            result.x = value(LIBINPUT_POINTER_AXIS_SCROLL_HORIZONTAL)
        }
        return result
    }
}
