import CSystemd
#if canImport(Glibc)
import Glibc
#endif

/// One sd-bus connection to the session bus, subscribed to the portal's `SettingChanged` for
/// reduced motion. Used on the watcher's thread alone.
final class PortalConnection {
    private typealias Watcher = PortalSettingsWatcher
    private let bus: OpaquePointer
    private var slot: OpaquePointer?
    /// Called with each change of `reduced-motion`, from `run`.
    private let onChange: (Bool) -> Void

    struct Absent: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to the user's session bus (or the bus at `address`) and subscribes (before the
    /// first read, so no change falls between the two).
    init(address: String?, onChange: @escaping (Bool) -> Void) throws(Absent) {
        let (opened, bus) = Self.open(address: address)
        guard opened >= 0, let bus else {
            throw Absent(description: "no session bus (\(String(cString: strerror(-opened))))")
        }
        self.bus = bus
        self.onChange = onChange
        let match = "type='signal',sender='\(Watcher.service)',path='\(Watcher.path)',interface='\(Watcher.interface)',member='SettingChanged',arg0='\(Watcher.namespace)',arg1='\(Watcher.key)'"
        let added = sd_bus_add_match(bus, &slot, match, { message, this, _ in
            guard let message, let this else { return 0 }
            Unmanaged<PortalConnection>.fromOpaque(this).takeUnretainedValue().received(message)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        guard added >= 0 else {
            throw Absent(description: "the session bus refused a match for SettingChanged (\(String(cString: strerror(-added))))")
        }
    }

    /// `sd_bus_open_user`, or a client of the bus at `address`.
    private static func open(address: String?) -> (Int32, OpaquePointer?) {
        var bus: OpaquePointer?
        guard let address else {
            let opened = sd_bus_open_user(&bus)
            return (opened, bus)
        }
        var result = sd_bus_new(&bus)
        guard result >= 0, let bus else { return (result, nil) }
        result = sd_bus_set_address(bus, address)
        if result >= 0 { result = sd_bus_set_bus_client(bus, 1) }
        if result >= 0 { result = sd_bus_start(bus) }
        guard result >= 0 else {
            sd_bus_unref(bus)
            return (result, nil)
        }
        return (result, bus)
    }

    deinit {
        if let slot { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(bus)
    }

    /// `reduced-motion` now: `ReadOne`, or `Read` where the portal is older than version 2 of
    /// its Settings interface. Throws when there is no portal, or it does not know the key.
    func readReducedMotion() throws(Absent) -> Bool {
        let reply: OpaquePointer
        do throws(CallFailed) {
            reply = try call("ReadOne")
        } catch where error.name == "org.freedesktop.DBus.Error.UnknownMethod" {
            do throws(CallFailed) { reply = try call("Read") } catch { throw error.absent }
        } catch {
            throw error.absent
        }
        defer { sd_bus_message_unref(reply) }
        guard let value = Self.readVariantUInt32(reply) else {
            throw Absent(description: "the portal's \(Watcher.namespace) \(Watcher.key) is not a uint32")
        }
        // Unknown values mean no preference, as the portal's documentation says.
        return value == 1
    }

    /// Dispatches what the bus has, then sleeps in poll(2) on the bus and `wake` (no timeout
    /// unless sd-bus has one pending) until `wake` is readable or the connection ends.
    func run(until wake: Int32) {
        while true {
            var processed: Int32
            repeat { processed = sd_bus_process(bus, nil) } while processed > 0
            if processed < 0 { return }
            var fds = [
                pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: max(0, sd_bus_get_events(bus))), revents: 0),
                pollfd(fd: wake, events: Int16(POLLIN), revents: 0),
            ]
            if poll(&fds, 2, timeout) < 0 && errno != EINTR { return }
            if fds[1].revents != 0 { return }
        }
    }

    /// Milliseconds until sd-bus needs processing without its fd being ready; -1: never.
    private var timeout: Int32 {
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(bus, &deadline) >= 0, deadline != UInt64.max else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        guard deadline > nowMicroseconds else { return 0 }
        return Int32(clamping: (deadline - nowMicroseconds + 999) / 1000)
    }

    /// `SettingChanged(s namespace, s key, v value)`, already matched on the first two.
    private func received(_ message: OpaquePointer) {
        guard let namespace = Self.readString(message), let key = Self.readString(message),
              namespace == Watcher.namespace, key == Watcher.key,
              let value = Self.readVariantUInt32(message) else { return }
        onChange(value == 1)
    }

    // MARK: sd-bus, without its variadic calls (Swift cannot call C's `...`)

    struct CallFailed: Error {
        let name: String
        let detail: String

        var absent: Absent {
            Absent(description: "the portal's Settings cannot say \(Watcher.namespace) \(Watcher.key): \(name)\(detail.isEmpty ? "" : ": \(detail)")")
        }
    }

    /// Calls Settings.`member`(namespace, key); the reply, or the error's name.
    private func call(_ member: String) throws(CallFailed) -> OpaquePointer {
        var message: OpaquePointer?
        var result = sd_bus_message_new_method_call(bus, &message, Watcher.service, Watcher.path, Watcher.interface, member)
        guard result >= 0, let message else { throw CallFailed(name: String(cString: strerror(-result)), detail: "") }
        defer { sd_bus_message_unref(message) }
        for string in [Watcher.namespace, Watcher.key] {
            result = string.withCString { sd_bus_message_append_basic(message, Int8(UInt8(ascii: "s")), $0) }
            guard result >= 0 else { throw CallFailed(name: String(cString: strerror(-result)), detail: "") }
        }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        // 0: sd-bus' default method call timeout (25 s), for a portal started by D-Bus activation.
        result = sd_bus_call(bus, message, 0, &error, &reply)
        guard result >= 0, let reply else {
            throw CallFailed(
                name: error.name.map { String(cString: $0) } ?? String(cString: strerror(-result)),
                detail: error.message.map { String(cString: $0) } ?? ""
            )
        }
        return reply
    }

    private static func readString(_ message: OpaquePointer) -> String? {
        var pointer: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, Int8(UInt8(ascii: "s")), &pointer) > 0, let pointer else { return nil }
        return String(cString: pointer)
    }

    /// A variant holding a uint32, or (the portal's older `Read`) a variant holding that variant.
    private static func readVariantUInt32(_ message: OpaquePointer) -> UInt32? {
        var nesting = 0
        while nesting < 2 {
            var type: CChar = 0
            var contents: UnsafePointer<CChar>?
            guard sd_bus_message_peek_type(message, &type, &contents) > 0, type == CChar(UInt8(ascii: "v")),
                  let contents, sd_bus_message_enter_container(message, type, contents) > 0 else { return nil }
            nesting += 1
            guard String(cString: contents) == "v" else { break }
        }
        var value: UInt32 = 0
        guard sd_bus_message_read_basic(message, Int8(UInt8(ascii: "u")), &value) > 0 else { return nil }
        return value
    }
}
