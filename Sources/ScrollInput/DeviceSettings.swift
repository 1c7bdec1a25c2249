import CLibinput

/// libinput settings to apply to one device when it appears (natural scrolling, scroll method,
/// scroll button, scroll button lock); nil leaves libinput's default. Settings a device does not support are
/// skipped and reported.
public struct DeviceSettings: Hashable, Sendable {
    public enum ScrollMethod: Hashable, Sendable {
        case twoFinger, edge, button, none
    }

    public var naturalScrolling: Bool?
    public var scrollMethod: ScrollMethod?
    public var scrollButton: UInt32?
    /// libinput's scroll button lock (`libinput_device_config_scroll_set_button_lock`): the
    /// scroll button toggles button scrolling instead of being held down.
    public var scrollButtonLock: Bool?

    public init(naturalScrolling: Bool? = nil, scrollMethod: ScrollMethod? = nil, scrollButton: UInt32? = nil, scrollButtonLock: Bool? = nil) {
        self.naturalScrolling = naturalScrolling
        self.scrollMethod = scrollMethod
        self.scrollButton = scrollButton
        self.scrollButtonLock = scrollButtonLock
    }

    /// Applies the settings; returns what the device could not take.
    func apply(to device: OpaquePointer) -> [String] {
        var problems: [String] = []
        if let natural = naturalScrolling {
            if libinput_device_config_scroll_has_natural_scroll(device) != 0 {
                libinput_device_config_scroll_set_natural_scroll_enabled(device, natural ? 1 : 0)
            } else {
                problems.append("natural_scrolling is not configurable on it")
            }
        }
        if let method = scrollMethod {
            let value: libinput_config_scroll_method
            switch method {
            case .twoFinger: value = LIBINPUT_CONFIG_SCROLL_2FG
            case .edge: value = LIBINPUT_CONFIG_SCROLL_EDGE
            case .button: value = LIBINPUT_CONFIG_SCROLL_ON_BUTTON_DOWN
            case .none: value = LIBINPUT_CONFIG_SCROLL_NO_SCROLL
            }
            let supported = libinput_device_config_scroll_get_methods(device)
            if value == LIBINPUT_CONFIG_SCROLL_NO_SCROLL || supported & value.rawValue != 0 {
                libinput_device_config_scroll_set_method(device, value)
            } else {
                problems.append("scroll_method \(method) is not supported by it")
            }
        }
        if let button = scrollButton {
            if libinput_device_config_scroll_get_methods(device) & LIBINPUT_CONFIG_SCROLL_ON_BUTTON_DOWN.rawValue != 0 {
                libinput_device_config_scroll_set_button(device, button)
            } else {
                problems.append("scroll_button needs button scrolling, which it does not support")
            }
        }
        if let lock = scrollButtonLock {
            // Button scrolling is what the lock is for; a device without it cannot take it.
            if libinput_device_config_scroll_get_methods(device) & LIBINPUT_CONFIG_SCROLL_ON_BUTTON_DOWN.rawValue != 0 {
                let state = lock ? LIBINPUT_CONFIG_SCROLL_BUTTON_LOCK_ENABLED : LIBINPUT_CONFIG_SCROLL_BUTTON_LOCK_DISABLED
                if libinput_device_config_scroll_set_button_lock(device, state) != LIBINPUT_CONFIG_STATUS_SUCCESS {
                    problems.append("scroll_button_lock was refused by it")
                }
            } else {
                problems.append("scroll_button_lock needs button scrolling, which it does not support")
            }
        }
        return problems
    }
}
