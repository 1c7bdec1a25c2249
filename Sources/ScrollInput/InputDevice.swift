import CLibinput
import ScrollModel

/// What scrolld knows of one device libinput handed it.
public struct InputDevice: Sendable, Hashable {
    public var id: Int
    public var name: String
    public var sysname: String
    /// The device node, e.g. /dev/input/event5.
    public var path: String
    public var capabilities: DeviceCapabilities

    init(id: Int, device: OpaquePointer, udev: OpaquePointer) {
        self.id = id
        name = String(cString: libinput_device_get_name(device))
        sysname = String(cString: libinput_device_get_sysname(device))
        path = "/dev/input/" + sysname
        let properties = DeviceAccessPolicy.properties(ofNode: path, udev: udev)
        let classes = DeviceAccessPolicy.capabilities(properties: properties)
        var caps: DeviceCapabilities = []
        if classes.wheel { caps.insert(.wheel) }
        if classes.finger { caps.insert(.finger) }
        if classes.continuous || libinput_device_config_scroll_get_methods(device) & LIBINPUT_CONFIG_SCROLL_ON_BUTTON_DOWN.rawValue != 0 {
            caps.insert(.continuous)
        }
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_GESTURE) != 0 { caps.insert(.hold) }
        if libinput_device_has_capability(device, LIBINPUT_DEVICE_CAP_TOUCH) != 0 { caps.insert(.touch) }
        capabilities = caps
    }
}
