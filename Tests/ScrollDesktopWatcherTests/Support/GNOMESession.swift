import Foundation
import ScrollDesktop
@testable import ScrollDesktopGNOME

/// The private session bus GSettings uses in this test process, with its own dconf database.
///
/// GLib reads the session bus' address, `XDG_CONFIG_HOME` (where dconf's database is) and
/// `XDG_RUNTIME_DIR` (where dconf-service flags a write) from the environment once, the first
/// time it needs them, and keeps them (and its bus connection, which dconf shares) for the
/// process' life: its bus connection as long as someone holds it. So this sets them once, starts
/// one watcher (which makes GLib read them, and holds the connection for good), and puts the
/// environment back: the other suites' processes, started meanwhile with this process'
/// environment, see this bus for no longer than that.
enum GNOMESession {
    static let shared: Result<PrivateSessionBus, PrivateSessionBus.Unavailable> = {
        do {
            let bus = try PrivateSessionBus()
            let names = ["DBUS_SESSION_BUS_ADDRESS", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR"]
            let saved = names.map { getenv($0).map { String(cString: $0) } }
            for name in names { setenv(name, bus.environment[name]!, 1) }
            defer {
                for (name, value) in zip(names, saved) {
                    if let value { setenv(name, value, 1) } else { unsetenv(name) }
                }
            }
            guard try holder.start(delivering: RecordingSink()) != nil else {
                return .failure(.init(description: "GSettings found no GNOME: \(holder.absence ?? "")"))
            }
            return .success(bus)
        } catch let error as PrivateSessionBus.Unavailable {
            return .failure(error)
        } catch {
            return .failure(.init(description: "\(error)"))
        }
    }()

    /// Never stopped: it holds GLib's connection to the private bus.
    private static let holder = GNOMESettingsWatcher()

    /// A watcher that does not look for the bus in the environment (put back by now): GLib is
    /// connected already.
    static func watcher() -> GNOMESettingsWatcher {
        GNOMESettingsWatcher(looksForTheBus: false)
    }

    /// Runs the real `gsettings` on the private bus (dconf-service writes the database).
    static func gsettings(_ arguments: String...) throws {
        try shared.get().run(["gsettings"] + arguments)
    }
}
