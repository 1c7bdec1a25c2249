import CSystemd
import ScrollDaemon
#if canImport(Glibc)
import Glibc
#endif

/// systemd-logind on the system bus, through sd-bus (docs/design.md §15): the seat's
/// `ActiveSession`, that session's `User` and `Active`, and the manager's `PrepareForSleep`, turned
/// into `InputGate` facts. Owned by the input thread, which polls `fileDescriptor` with the rest
/// and calls `process()` when it is ready or `timeout` has passed: no polling of logind, no
/// wake-up while nothing changes.
///
/// Not thread-safe, as sd-bus connections are not: it never leaves the input thread.
final class LogindWatcher {
    static let service = "org.freedesktop.login1"
    static let managerPath = "/org/freedesktop/login1"

    private let bus: OpaquePointer
    private var slots: [OpaquePointer] = []
    /// The seat's object path (Manager.GetSeat).
    private let seatPath: String
    /// The active session's object path; only its signals are subscribed to (other sessions'
    /// changes, an idle hint say, never wake the input thread).
    private var sessionPath: String? {
        didSet { if sessionPath != oldValue { watchSession() } }
    }
    private var sessionSlot: OpaquePointer?
    /// The delay inhibitor's fd while held (-1: none): logind waits for it before sleeping.
    private var inhibitor: Int32 = -1
    private(set) var gate: InputGate
    /// Called with each transition, from `process()` (on the input thread).
    var onTransition: (InputGate.Transition) -> Void = { _ in }
    /// The seat's facts at start, when they pause input (the devices are open until then).
    private(set) var atStart: InputGate.Transition?
    /// Warnings that do not stop the watch (an inhibitor refused), for the log.
    var onWarning: (String) -> Void = { _ in }

    struct Unavailable: Error, CustomStringConvertible {
        let description: String
    }

    /// Connects to the system bus and reads the seat's facts once (`atStart`: not reported to
    /// `onTransition`, which is not set yet). Throws, with why, when there is no
    /// system bus or no logind on it.
    init(seat: String, uid: UInt32) throws(Unavailable) {
        var bus: OpaquePointer?
        let opened = sd_bus_open_system(&bus)
        guard opened >= 0, let bus else {
            throw Unavailable(description: "no system bus (\(String(cString: strerror(-opened))))")
        }
        self.bus = bus
        gate = InputGate(uid: uid, seat: seat)
        do throws(Unavailable) {
            let reply = try Self.call(bus, path: Self.managerPath, interface: "org.freedesktop.login1.Manager", member: "GetSeat", strings: [seat])
            defer { sd_bus_message_unref(reply) }
            guard let path = Self.readString(reply, type: "o") else { throw Unavailable(description: "logind's GetSeat(\(seat)) answered no path") }
            seatPath = path
        } catch {
            sd_bus_flush_close_unref(bus)
            throw error
        }
        // Subscribed before the first read, so no change falls between the two.
        let signals = [
            "type='signal',sender='\(Self.service)',path='\(seatPath)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='org.freedesktop.login1.Seat'",
            "type='signal',sender='\(Self.service)',path='\(Self.managerPath)',interface='org.freedesktop.login1.Manager',member='PrepareForSleep'",
        ]
        for match in signals {
            // (deinit closes what is open so far.)
            guard let slot = subscribe(match) else { throw Unavailable(description: "cannot watch logind's signals") }
            slots.append(slot)
        }
        atStart = gate.setActiveSession(readActiveSession())
        if gate.state.isActive { takeInhibitor() }
    }

    deinit {
        releaseInhibitor()
        if let sessionSlot { sd_bus_slot_unref(sessionSlot) }
        for slot in slots { sd_bus_slot_unref(slot) }
        sd_bus_flush_close_unref(bus)
    }

    // MARK: The input thread's poll

    var fileDescriptor: Int32 { sd_bus_get_fd(bus) }
    /// The poll(2) events sd-bus waits for now.
    var events: Int16 { Int16(truncatingIfNeeded: max(0, sd_bus_get_events(bus))) }

    /// Milliseconds until sd-bus needs `process()` without its fd being ready (-1: never; 0:
    /// now, e.g. messages already queued by a method call).
    var timeout: Int32 {
        var deadline: UInt64 = 0
        guard sd_bus_get_timeout(bus, &deadline) >= 0 else { return -1 }
        if deadline == UInt64.max { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        guard deadline > nowMicroseconds else { return 0 }
        return Int32(clamping: (deadline - nowMicroseconds + 999) / 1000)
    }

    /// Reads and dispatches what the bus has; signal handlers report transitions as they go.
    /// Returns false when the connection is gone (logind's watch then ends: input stays as it
    /// is, and the log says so).
    func process() -> Bool {
        while true {
            let result = sd_bus_process(bus, nil)
            if result < 0 { return false }
            if result == 0 { return true }
        }
    }

    // MARK: Facts from logind

    private func received(_ message: OpaquePointer) {
        let member = sd_bus_message_get_member(message).map { String(cString: $0) }
        if member == "PrepareForSleep" {
            var sleeping: Int32 = 0
            guard sd_bus_message_read_basic(message, Int8(UInt8(ascii: "b")), &sleeping) >= 0 else { return }
            if sleeping != 0 {
                report(gate.setSleeping(true))
                // The devices are closed by now (`report` runs the transition): logind may go on.
                releaseInhibitor()
            } else {
                // Facts may have changed while asleep (a user switch at the lock screen): read
                // them first (while asleep that makes no transition), then wake.
                _ = gate.setActiveSession(readActiveSession())
                let transition = gate.setSleeping(false)
                if gate.state.isActive { takeInhibitor() }
                report(transition)
            }
            return
        }
        let path = sd_bus_message_get_path(message).map { String(cString: $0) }
        let isSeat = path == seatPath
        guard isSeat || path == sessionPath else { return }
        guard let transition = gate.setActiveSession(readActiveSession()) else { return }
        if transition.to.isActive { takeInhibitor() }
        report(transition)
        if !transition.to.isActive { releaseInhibitor() }
    }

    /// Adds a match whose signals go to `received`; nil when the bus refused it.
    private func subscribe(_ match: String) -> OpaquePointer? {
        var slot: OpaquePointer?
        let added = sd_bus_add_match(bus, &slot, match, { message, userData, _ in
            guard let message, let userData else { return 0 }
            Unmanaged<LogindWatcher>.fromOpaque(userData).takeUnretainedValue().received(message)
            return 0
        }, Unmanaged.passUnretained(self).toOpaque())
        return added >= 0 ? slot : nil
    }

    /// Follows the `PropertiesChanged` of the seat's active session (`Active` changes there).
    private func watchSession() {
        if let sessionSlot { sd_bus_slot_unref(sessionSlot) }
        sessionSlot = sessionPath.flatMap {
            subscribe("type='signal',sender='\(Self.service)',path='\($0)',interface='org.freedesktop.DBus.Properties',member='PropertiesChanged',arg0='org.freedesktop.login1.Session'")
        }
    }

    /// Hands a transition to the input thread (which closes or reopens the devices) before the
    /// inhibitor is released, so logind's sleep waits for the devices to be closed.
    private func report(_ transition: InputGate.Transition?) {
        guard let transition else { return }
        onTransition(transition)
    }

    /// The seat's active session as logind has it now; nil when it has none, or cannot say.
    private func readActiveSession() -> InputGate.ActiveSession? {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        guard sd_bus_get_property(bus, Self.service, seatPath, "org.freedesktop.login1.Seat", "ActiveSession", &error, &reply, "(so)") >= 0, let reply else {
            sessionPath = nil
            return nil
        }
        defer { sd_bus_message_unref(reply) }
        guard sd_bus_message_enter_container(reply, Int8(UInt8(ascii: "r")), "so") >= 0,
              let id = Self.readString(reply, type: "s"), let path = Self.readString(reply, type: "o"),
              !id.isEmpty, path != "/" else {
            sessionPath = nil
            return nil
        }
        sessionPath = path
        guard let uid = readSessionUser(path) else { return nil }
        var active: Int32 = 0
        guard sd_bus_get_property_trivial(bus, Self.service, path, "org.freedesktop.login1.Session", "Active", &error, Int8(UInt8(ascii: "b")), &active) >= 0 else { return nil }
        return InputGate.ActiveSession(id: id, uid: uid, isActive: active != 0)
    }

    private func readSessionUser(_ path: String) -> UInt32? {
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        guard sd_bus_get_property(bus, Self.service, path, "org.freedesktop.login1.Session", "User", &error, &reply, "(uo)") >= 0, let reply else { return nil }
        defer { sd_bus_message_unref(reply) }
        var uid: UInt32 = 0
        guard sd_bus_message_enter_container(reply, Int8(UInt8(ascii: "r")), "uo") >= 0,
              sd_bus_message_read_basic(reply, Int8(UInt8(ascii: "u")), &uid) >= 0 else { return nil }
        return uid
    }

    // MARK: The delay inhibitor

    /// Held while the devices are open: logind then waits (up to its InhibitDelayMaxSec) for
    /// the daemon to close them before the system sleeps.
    private func takeInhibitor() {
        guard inhibitor < 0 else { return }
        do throws(Unavailable) {
            let reply = try Self.call(
                bus, path: Self.managerPath, interface: "org.freedesktop.login1.Manager", member: "Inhibit",
                strings: ["sleep", "scrolld", "Close the input devices before sleep", "delay"]
            )
            defer { sd_bus_message_unref(reply) }
            var fd: Int32 = -1
            guard sd_bus_message_read_basic(reply, Int8(UInt8(ascii: "h")), &fd) >= 0, fd >= 0 else { return }
            // The message owns its fd: keep a copy of our own.
            inhibitor = fcntl(fd, F_DUPFD_CLOEXEC, 3)
        } catch {
            onWarning("no sleep inhibitor (\(error)): input is still paused when the system sleeps, but logind may not wait for it")
        }
    }

    private func releaseInhibitor() {
        guard inhibitor >= 0 else { return }
        close(inhibitor)
        inhibitor = -1
    }

    // MARK: sd-bus, without its variadic calls (Swift cannot call C's `...`)

    /// Calls a logind method with string arguments; the reply, or why not.
    private static func call(_ bus: OpaquePointer, path: String, interface: String, member: String, strings: [String]) throws(Unavailable) -> OpaquePointer {
        var message: OpaquePointer?
        var result = sd_bus_message_new_method_call(bus, &message, service, path, interface, member)
        guard result >= 0, let message else { throw Unavailable(description: "cannot call \(member) (\(String(cString: strerror(-result))))") }
        defer { sd_bus_message_unref(message) }
        for string in strings {
            result = string.withCString { sd_bus_message_append_basic(message, Int8(UInt8(ascii: "s")), $0) }
            guard result >= 0 else { throw Unavailable(description: "cannot call \(member) (\(String(cString: strerror(-result))))") }
        }
        var error = sd_bus_error()
        defer { sd_bus_error_free(&error) }
        var reply: OpaquePointer?
        result = sd_bus_call(bus, message, 5_000_000, &error, &reply)
        guard result >= 0, let reply else {
            let name = error.name.map { String(cString: $0) } ?? String(cString: strerror(-result))
            let detail = error.message.map { String(cString: $0) }
            throw Unavailable(description: "logind's \(member) failed: \(name)\(detail.map { ": \($0)" } ?? "")")
        }
        return reply
    }

    private static func readString(_ message: OpaquePointer, type: Character) -> String? {
        var pointer: UnsafePointer<CChar>?
        guard sd_bus_message_read_basic(message, Int8(type.asciiValue!), &pointer) > 0, let pointer else { return nil }
        return String(cString: pointer)
    }
}
