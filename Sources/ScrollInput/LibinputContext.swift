import CLibinput
import ScrollModel
#if canImport(Glibc)
import Glibc
#endif

/// A libinput context on the udev backend (a seat) or the path backend (explicit nodes), with
/// the open/close callbacks that enforce `DeviceAccessPolicy`.
///
/// Not thread-safe: libinput contexts belong to one thread. The owner waits for `fileDescriptor`
/// to become readable, then calls `dispatch()` and drains `nextEvent()`.
public final class LibinputContext {
    public enum Backend: Sendable {
        case seat(String)
        case paths([String])
    }

    public struct SetupError: Error, CustomStringConvertible {
        public let description: String
    }

    let udev: OpaquePointer
    var libinput: OpaquePointer!
    let interface: UnsafeMutablePointer<libinput_interface>
    /// Why nodes were refused or failed to open, by path, for `scrolld devices` and the logs.
    public private(set) var refusals: [String: String] = [:]
    /// The first permission failure, reported once with its fix.
    public private(set) var permissionProblem: String?
    /// Every node scrolld ever opened (the e2e test checks no keyboard is among them).
    public private(set) var openedPaths: [String] = []
    /// Device ids handed out in order of appearance, stable for the context's life.
    var nextDeviceID = 1
    public private(set) var devices: [Int: InputDevice] = [:]
    let mapper = InputEventMapper()
    /// Refusals, permission problems and unsupported settings, as they happen (devices present
    /// at start-up are opened during `init`, so the handler is given there).
    public var onDiagnostic: (String) -> Void
    /// The settings for a device, by name, applied when it appears and by `reapplySettings()`.
    public var settings: (String) -> DeviceSettings
    /// libinput's handles of the present devices, by id, to re-apply settings on reload.
    var handles: [Int: OpaquePointer] = [:]

    /// `settings` are applied to each device as it appears (and again by `reapplySettings()`).
    /// Device names never opened (`daemon.ignore`).
    let ignoredNames: Set<String>
    /// Whether touchscreens are opened (`[input] touchscreens`, docs/design.md §25).
    let touchscreens: Bool

    public init(
        _ backend: Backend,
        ignoring ignoredNames: [String] = [],
        touchscreens: Bool = true,
        settings: @escaping (String) -> DeviceSettings = { _ in DeviceSettings() },
        onDiagnostic: @escaping (String) -> Void = { _ in }
    ) throws {
        self.ignoredNames = Set(ignoredNames)
        self.touchscreens = touchscreens
        self.settings = settings
        self.onDiagnostic = onDiagnostic
        guard let udev = udev_new() else { throw SetupError(description: "udev_new failed") }
        self.udev = udev
        interface = .allocate(capacity: 1)
        interface.initialize(to: Self.callbacks)
        let userData = Unmanaged.passUnretained(self).toOpaque()
        switch backend {
        case .seat(let seat):
            guard let context = libinput_udev_create_context(interface, userData, udev) else {
                throw SetupError(description: "cannot create a libinput context")
            }
            libinput = context
            Self.logToStandardError(context)
            guard libinput_udev_assign_seat(context, seat) == 0 else {
                throw SetupError(description: "cannot assign seat \(seat) (is udev running?)")
            }
        case .paths(let paths):
            guard let context = libinput_path_create_context(interface, userData) else {
                throw SetupError(description: "cannot create a libinput context")
            }
            libinput = context
            Self.logToStandardError(context)
            for path in paths where libinput_path_add_device(context, path) == nil {
                if refusals[path] == nil { refusals[path] = "libinput could not use it (not an evdev input device, or unreadable)" }
                onDiagnostic("\(path): \(refusals[path]!)")
            }
        }
    }

    deinit {
        if let libinput { libinput_unref(libinput) }
        udev_unref(udev)
        interface.deallocate()
    }

    public var fileDescriptor: Int32 { libinput_get_fd(libinput) }

    /// Reads what the kernel has and queues libinput's events. Call when the fd is readable.
    public func dispatch() {
        libinput_dispatch(libinput)
    }

    /// Closes every device (docs/design.md §15: the user left the seat, or the system sleeps).
    /// Their removal events follow from `nextEvent()`, so gestures in progress end as scroll stops.
    public func suspend() {
        libinput_suspend(libinput)
    }

    /// Finds the devices anew (the seat's, or the paths given) after `suspend()`: each comes
    /// back as a new device, so one plugged in meanwhile is used and one unplugged is gone.
    /// Returns false when libinput could not.
    @discardableResult
    public func resume() -> Bool {
        libinput_resume(libinput) == 0
    }

    /// The next scroll-relevant event, mapped; other events are consumed and skipped.
    public func nextEvent() -> ScrollEvent? {
        while let event = libinput_get_event(libinput) {
            defer { libinput_event_destroy(event) }
            if let mapped = map(event) { return mapped }
        }
        return nil
    }

    func map(_ event: OpaquePointer) -> ScrollEvent? {
        let type = libinput_event_get_type(event)
        let device = libinput_event_get_device(event)!
        switch type {
        case LIBINPUT_EVENT_DEVICE_ADDED:
            let id = nextDeviceID
            nextDeviceID += 1
            libinput_device_set_user_data(device, UnsafeMutableRawPointer(bitPattern: id))
            let info = InputDevice(id: id, device: device, udev: udev)
            devices[id] = info
            handles[id] = device
            apply(settings(info.name), to: device, named: info.name)
            return ScrollEvent(time: MonotonicClock.now(), device: id, kind: .deviceAdded(name: info.name, capabilities: info.capabilities))
        case LIBINPUT_EVENT_DEVICE_REMOVED:
            let id = Self.id(of: device)
            devices[id] = nil
            handles[id] = nil
            return ScrollEvent(time: MonotonicClock.now(), device: id, kind: .deviceRemoved)
        default:
            return mapper.map(event, type: type, device: Self.id(of: device))
        }
    }

    /// Applies the current `settings` to every present device again (after a reload).
    public func reapplySettings() {
        for (id, device) in handles {
            guard let name = devices[id]?.name else { continue }
            apply(settings(name), to: device, named: name)
        }
    }

    func apply(_ settings: DeviceSettings, to device: OpaquePointer, named name: String) {
        // The name is the device's maker's: quoted, so that it cannot forge a log line.
        for problem in settings.apply(to: device) { onDiagnostic("\(DeviceNameText.quoted(name)): \(problem)") }
    }

    static func id(of device: OpaquePointer) -> Int {
        Int(bitPattern: libinput_device_get_user_data(device))
    }

    // MARK: libinput's log

    /// libinput's own messages (errors only, its default priority), on standard error as its
    /// default handler writes them (`libinput error: …`), but one line each, with control
    /// characters escaped. Its messages are about devices that whoever made them chose (a
    /// uinput device can be made to trigger "kernel bug: …" at will); libinput already shows a
    /// name's control characters as `?`, but its default handler wrote a message of several
    /// lines (`… low-resolution events have been received.\nSee https://…`) as several log
    /// lines, the later ones no entry of their own.
    private static func logToStandardError(_ context: OpaquePointer) {
        // A closure literal, not a stored property: the compiler crashes deserializing a stored
        // C function pointer whose type involves va_list.
        libinput_log_set_handler(context) { _, priority, format, arguments in
            guard let format, let arguments else { return }
            var buffer = [CChar](repeating: 0, count: 2048)
            let length = buffer.withUnsafeMutableBufferPointer { vsnprintf($0.baseAddress, $0.count, format, arguments) }
            guard length >= 0 else { return }
            LibinputContext.writeLogLine(priority: priority, message: buffer, cut: Int(length) >= buffer.count)
        }
    }

    static func writeLogLine(priority: libinput_log_priority, message buffer: [CChar], cut: Bool) {
        var bytes = buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
        while bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        let label = switch priority {
        case LIBINPUT_LOG_PRIORITY_DEBUG: "debug"
        case LIBINPUT_LOG_PRIORITY_INFO: "info"
        default: "error"
        }
        let text = DeviceNameText.printable(String(decoding: bytes, as: UTF8.self))
        let line = Array("libinput \(label): \(text)\(cut ? " (cut)" : "")\n".utf8)
        // One write(2), as the default handler's stdio would flush it: the line is not split
        // among other threads' lines.
        _ = line.withUnsafeBytes { write(STDERR_FILENO, $0.baseAddress, $0.count) }
    }

    // MARK: open_restricted / close_restricted

    /// libinput keeps the interface pointer for the context's life, so each context owns a copy.
    static let callbacks = libinput_interface(
        open_restricted: { path, flags, userData in
            guard let path, let userData else { return -EINVAL }
            let context = Unmanaged<LibinputContext>.fromOpaque(userData).takeUnretainedValue()
            return context.open(String(cString: path), flags: flags)
        },
        close_restricted: { fd, _ in
            close(fd)
        }
    )

    func open(_ path: String, flags: Int32) -> Int32 {
        let properties = DeviceAccessPolicy.properties(ofNode: path, udev: udev)
        var decision = DeviceAccessPolicy.decide(properties: properties, touchscreens: touchscreens)
        if decision == .open, !ignoredNames.isEmpty,
           let name = DeviceAccessPolicy.deviceName(ofNode: path, udev: udev), ignoredNames.contains(name) {
            decision = .refuse("\(DeviceNameText.quoted(name)) is in daemon.ignore")
        }
        if case .refuse(let reason) = decision {
            if refusals[path] == nil { onDiagnostic("not opening \(path): \(reason)") }
            refusals[path] = reason
            return -EPERM
        }
        let fd = Glibc.open(path, flags | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == EACCES || code == EPERM {
                refusals[path] = "permission denied"
                if permissionProblem == nil {
                    permissionProblem = "cannot read \(path): permission denied. scrolld needs read access to /dev/input: add your user to the 'input' group (sudo usermod -aG input $USER) and log in again"
                    onDiagnostic(permissionProblem!)
                }
            } else {
                refusals[path] = String(cString: strerror(code))
            }
            return -code
        }
        openedPaths.append(path)
        refusals[path] = nil
        return fd
    }
}

/// CLOCK_MONOTONIC in µs: the clock libinput stamps its events with, and so the engine's
/// clock in a live daemon (input and frames share one timeline).
public enum MonotonicClock {
    public static func now() -> Timestamp {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Timestamp(ts.tv_sec) * 1_000_000 + Timestamp(ts.tv_nsec) / 1000
    }
}
