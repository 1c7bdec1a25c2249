import ScrollDesktop
import ScrollDesktopWatchers

/// The desktops scrolld follows (docs/design.md §23), one watcher each: the only list of them.
/// A watcher whose desktop is not here finds nothing and watches nothing.
enum DesktopWatchers {
    static func all(environment: [String: String]) -> [any DesktopSettingsWatcher] {
        var watchers: [any DesktopSettingsWatcher] = []
        if let directory = KDEWatcher.directory(environment: environment) { watchers.append(KDEWatcher(directory: directory)) }
        watchers.append(SwayWatcher(socketPath: environment["SWAYSOCK"]))
        return watchers
    }
}
