import ScrollDesktop
import ScrollDesktopGNOME
import ScrollDesktopPortal
import ScrollDesktopWatchers

/// The desktops scrolld follows (docs/design.md §23), one watcher each: the only list of them.
/// A watcher whose desktop is not here finds nothing and watches nothing.
enum DesktopWatchers {
    static func all(environment: [String: String]) -> [any DesktopSettingsWatcher] {
        var watchers: [any DesktopSettingsWatcher] = []
        if let directory = KDEWatcher.directory(environment: environment) { watchers.append(KDEWatcher(directory: directory)) }
        watchers.append(SwayWatcher(socketPath: environment["SWAYSOCK"]))
        // GSettings and the portal find the session bus (DBUS_SESSION_BUS_ADDRESS, else
        // $XDG_RUNTIME_DIR/bus) from the process' environment themselves.
        watchers.append(GNOMESettingsWatcher())
        watchers.append(PortalSettingsWatcher())
        return watchers
    }

    /// Why a watcher found nothing, where it says (GNOME and the portal do), for the log.
    static func absence(of watcher: any DesktopSettingsWatcher) -> String? {
        switch watcher {
        case let gnome as GNOMESettingsWatcher: gnome.absence
        case let portal as PortalSettingsWatcher: portal.absence
        default: nil
        }
    }
}
