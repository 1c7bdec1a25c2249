import NIOCore
import ScrollDaemon
import ScrollDesktop

extension Daemon {
    /// Starts every desktop's watcher unless `[input] follow_desktop = false`, and says once
    /// which desktops were looked for and what was found. Returns the running ones, to stop.
    func followDesktops(_ running: Running) -> [any DesktopSettingsWatcher] {
        guard options.configuration.input.followDesktop else {
            logger.notice("not following the desktop's settings: [input] follow_desktop = false")
            return []
        }
        let current = DesktopMerge.current(options.environment["XDG_CURRENT_DESKTOP"])
        let core = running.core
        try? running.loop.submit { core.value.desktops.current = current }.wait()
        let sink = DesktopSink(core: core)
        var started: [any DesktopSettingsWatcher] = []
        var report: [String] = []
        for watcher in DesktopWatchers.all(environment: options.environment) {
            do {
                if let found = try watcher.start(delivering: sink) {
                    started.append(watcher)
                    report.append("\(watcher.desktop.rawValue): \(DesktopLogLine.shown(found))")
                } else {
                    let why = DesktopWatchers.absence(of: watcher).map { " (\(DesktopLogLine.shown($0)))" } ?? ""
                    report.append("\(watcher.desktop.rawValue): not found\(why)")
                }
            } catch {
                report.append("\(watcher.desktop.rawValue): \(DesktopLogLine.shown("\(error)"))")
            }
        }
        logger.notice("desktop settings looked for (\(started.isEmpty ? "none found" : "following \(started.map(\.desktop.rawValue).joined(separator: ", "))")): \(report.joined(separator: "; "))")
        return started
    }
}
