import CLibinput
#if canImport(Glibc)
import Glibc
#endif

/// Which device nodes scrolld may open: never one that is only a keyboard. scrolld reads scroll
/// input and has no business seeing keystrokes, so the decision is made from udev's
/// classification before the node is opened (docs/design.md §9).
public enum DeviceAccessPolicy {
    public enum Decision: Equatable, Sendable {
        case open
        /// Refused, with the reason (for `scrolld devices`).
        case refuse(String)
    }

    /// udev's `ID_INPUT_*` classification of the device node at `path`.
    public static func properties(ofNode path: String, udev: OpaquePointer) -> [String: String] {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFCHR else { return [:] }
        guard let device = udev_device_new_from_devnum(udev, CChar(UInt8(ascii: "c")), info.st_rdev) else { return [:] }
        defer { udev_device_unref(device) }
        var result: [String: String] = [:]
        var entry = udev_device_get_properties_list_entry(device)
        while let current = entry {
            if let name = udev_list_entry_get_name(current), let value = udev_list_entry_get_value(current) {
                let key = String(cString: name)
                if key.hasPrefix("ID_INPUT") { result[key] = String(cString: value) }
            }
            entry = udev_list_entry_get_next(current)
        }
        return result
    }

    /// The kernel's name of the input device behind the node at `path` (what libinput reports
    /// as the device name), read from udev without opening the node.
    public static func deviceName(ofNode path: String, udev: OpaquePointer) -> String? {
        var info = stat()
        guard stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFCHR else { return nil }
        guard let device = udev_device_new_from_devnum(udev, CChar(UInt8(ascii: "c")), info.st_rdev) else { return nil }
        defer { udev_device_unref(device) }
        guard let parent = udev_device_get_parent_with_subsystem_devtype(device, "input", nil),
              let name = udev_device_get_sysattr_value(parent, "name")
        else { return nil }
        return String(cString: name)
    }

    /// A node is opened when udev says it points, scrolls or touches; a node that is only a
    /// keyboard (or only keys) is refused. Unclassified nodes are refused too: libinput itself
    /// skips devices udev has not tagged as input.
    ///
    /// A touchscreen (`ID_INPUT_TOUCHSCREEN`) is opened unless `touchscreens` is false
    /// (`[input] touchscreens`, docs/design.md §25), and never when udev also calls it a keyboard.
    public static func decide(properties: [String: String], touchscreens: Bool = true) -> Decision {
        func has(_ key: String) -> Bool { properties[key] == "1" }
        let pointing = ["ID_INPUT_MOUSE", "ID_INPUT_TOUCHPAD", "ID_INPUT_POINTINGSTICK", "ID_INPUT_TRACKBALL", "ID_INPUT_TABLET", "ID_INPUT_JOYSTICK"]
        if pointing.contains(where: has) { return .open }
        if has("ID_INPUT_TOUCHSCREEN"), !has("ID_INPUT_KEYBOARD") {
            return touchscreens ? .open : .refuse("a touchscreen, and [input] touchscreens = false")
        }
        if has("ID_INPUT_KEYBOARD") || has("ID_INPUT_KEY") { return .refuse("a keyboard: scrolld never opens keyboards") }
        if properties.isEmpty { return .refuse("not classified as an input device by udev") }
        return .refuse("no pointer, touchpad, trackpoint or touchscreen capability")
    }

    /// The capabilities the event log records for a device, from its udev classification.
    public static func capabilities(properties: [String: String]) -> (wheel: Bool, finger: Bool, continuous: Bool) {
        func has(_ key: String) -> Bool { properties[key] == "1" }
        return (
            wheel: has("ID_INPUT_MOUSE") || has("ID_INPUT_TRACKBALL"),
            finger: has("ID_INPUT_TOUCHPAD"),
            continuous: has("ID_INPUT_POINTINGSTICK") || has("ID_INPUT_TRACKBALL") || has("ID_INPUT_MOUSE")
        )
    }
}
