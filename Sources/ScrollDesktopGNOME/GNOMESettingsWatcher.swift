import CGIO
import ScrollDesktop
import ScrollPOSIX
import Synchronization

/// GNOME's settings for scrolling, through GSettings (docs/design.md §23): `natural-scroll` of
/// `org.gnome.desktop.peripherals.touchpad` (every touchpad) and of `…peripherals.mouse` (every
/// other pointer), and `enable-animations` of `org.gnome.desktop.interface` (off: reduced motion).
///
/// A thread of its own runs a GLib main loop on a main context of its own, where GSettings' change
/// signals arrive: dconf tells GSettings of a write over the session bus, so the thread sleeps in
/// poll(2) until the user changes something. Nothing is polled.
public final class GNOMESettingsWatcher: DesktopSettingsWatcher {
    public let desktop = Desktop.gnome

    /// What one schema says, and where it goes in `DesktopSettings`.
    enum Watched: CaseIterable, Sendable {
        case touchpad, mouse, interface

        var schema: String {
            switch self {
            case .touchpad: "org.gnome.desktop.peripherals.touchpad"
            case .mouse: "org.gnome.desktop.peripherals.mouse"
            case .interface: "org.gnome.desktop.interface"
            }
        }

        var key: String {
            switch self {
            case .touchpad, .mouse: "natural-scroll"
            case .interface: "enable-animations"
            }
        }
    }

    private struct Running: @unchecked Sendable {
        let thread: JoinableThread
        let loop: GSettingsLoop
        /// The session bus connection, held while watching (see `sessionBus()`).
        let bus: OpaquePointer
    }

    private let running = Mutex<Running?>(nil)
    /// Why the last `start` found no GNOME here, for the log; nil after one that did.
    public var absence: String? { absenceReason.withLock { $0 } }
    private let absenceReason = Mutex<String?>(nil)

    /// Whether `start` looks for the session bus where sd-bus does before GLib connects (see
    /// `sessionBus()`). Off only in tests, which connect GLib once and then put back the
    /// process' environment.
    private let looksForTheBus: Bool

    public convenience init() {
        self.init(looksForTheBus: true)
    }

    init(looksForTheBus: Bool) {
        self.looksForTheBus = looksForTheBus
    }

    deinit { stop() }

    public func start(delivering sink: any DesktopSettingsSink) throws -> String? {
        stop()
        let watched = Watched.allCases.filter(Self.isInstalled)
        guard !watched.isEmpty else {
            return absent("none of GNOME's schemas is installed (\(Watched.allCases.map(\.schema).joined(separator: ", ")))")
        }
        let bus: OpaquePointer
        switch Self.sessionBus(looking: looksForTheBus) {
        case .success(let connection): bus = connection
        case .failure(let reason): return absent(reason.description)
        }
        let loop = GSettingsLoop(watching: watched, sink: sink)
        let thread: JoinableThread
        let outcome: String?
        do {
            (thread, outcome) = try JoinableThread.start(name: "scrolld-gnome") { (started: (String?) -> Void) in
                loop.run(started: started)
            }
        } catch {
            g_object_unref(UnsafeMutableRawPointer(bus))
            throw error
        }
        if let backend = outcome {
            thread.join()
            g_object_unref(UnsafeMutableRawPointer(bus))
            return absent("GSettings has no dconf here (its backend is \(backend)): nothing would tell it of a change")
        }
        running.withLock { $0 = Running(thread: thread, loop: loop, bus: bus) }
        absenceReason.withLock { $0 = nil }
        return "GSettings on the session bus (\(watched.map(\.schema).joined(separator: ", ")))"
    }

    public func stop() {
        guard let running = running.withLock({ state -> Running? in defer { state = nil }; return state }) else { return }
        running.loop.quit()
        running.thread.join()
        g_object_unref(UnsafeMutableRawPointer(running.bus))
    }

    private func absent(_ reason: String) -> String? {
        absenceReason.withLock { $0 = reason }
        return nil
    }

    // MARK: Is GNOME here?

    /// The schema is installed and has the key (an old one may lack the mouse's natural-scroll).
    static func isInstalled(_ watched: Watched) -> Bool {
        guard let source = g_settings_schema_source_get_default(),
              let schema = g_settings_schema_source_lookup(source, watched.schema, 1) else { return false }
        defer { g_settings_schema_unref(schema) }
        return g_settings_schema_has_key(schema, watched.key) != 0
    }

    struct NoSessionBus: Error, CustomStringConvertible {
        let description: String
    }

    /// The session bus GLib shares with dconf: without one, no change would ever be told.
    /// GLib's shared connection ends the process (SIGTERM) when the bus closes, by default; a
    /// daemon that outlives a session bus must not, so that is turned off here, and the
    /// reference kept while watching keeps the setting on the one connection dconf uses too.
    static func sessionBus(looking: Bool) -> Result<OpaquePointer, NoSessionBus> {
        // Where sd-bus looks too. GLib alone would go on to autolaunch a bus of its own for an X
        // display (dbus-launch), which no other process of the session would share.
        let runtimeBus = g_getenv("XDG_RUNTIME_DIR").map { String(cString: $0) + "/bus" }
        guard !looking || g_getenv("DBUS_SESSION_BUS_ADDRESS") != nil || runtimeBus.map({ g_file_test($0, G_FILE_TEST_EXISTS) != 0 }) == true else {
            return .failure(NoSessionBus(description: "no session bus (DBUS_SESSION_BUS_ADDRESS is not set, and there is no $XDG_RUNTIME_DIR/bus)"))
        }
        var error: UnsafeMutablePointer<GError>?
        guard let connection = g_bus_get_sync(G_BUS_TYPE_SESSION, nil, &error) else {
            let message = error.map { String(cString: $0.pointee.message) } ?? "unknown error"
            if let error { g_error_free(error) }
            return .failure(NoSessionBus(description: "no session bus (\(message))"))
        }
        g_dbus_connection_set_exit_on_close(connection, 0)
        return .success(connection)
    }
}
