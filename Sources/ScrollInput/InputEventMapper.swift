import CLibinput
import ScrollModel

/// Turns libinput's scroll and hold events into `ScrollEvent`s, exactly as the event log
/// records them: an axis is present when `has_axis` says so, values keep libinput's sign
/// (natural scrolling is already applied by libinput and is never applied again), and every
/// other event type (motion, buttons, the deprecated POINTER_AXIS, unknown future types) is
/// ignored.
struct InputEventMapper {
    func map(_ event: OpaquePointer, type: libinput_event_type, device: Int) -> ScrollEvent? {
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
