import NIOCore
import ScrollDaemon
import ScrollDesktop
import Synchronization

/// Hands a watcher's settings, on the watcher's thread, to the loop that owns the core.
///
/// Settings that come while earlier ones of the same desktop wait for the loop replace them:
/// the loop applies each desktop's latest once, however fast its files are rewritten. Each
/// application resolves every container, so one task per change would queue more work than the
/// loop can do, and every client would wait behind it (docs/design.md §23).
final class DesktopSink: DesktopSettingsSink {
    let core: NIOLoopBound<DaemonCore>
    /// The settings not yet applied, the latest of each desktop in the order they came. Not
    /// empty exactly while a task that applies them is queued.
    private let pending = Mutex<[DesktopSettings]>([])

    init(core: NIOLoopBound<DaemonCore>) {
        self.core = core
    }

    func desktopSettingsChanged(_ settings: DesktopSettings) {
        let isQueued = pending.withLock { pending in
            let isQueued = !pending.isEmpty
            pending.removeAll { $0.desktop == settings.desktop }
            pending.append(settings)
            return isQueued
        }
        guard !isQueued else { return }
        let core = self.core
        core.eventLoop.execute { [self] in
            let latest = pending.withLock { pending in
                defer { pending = [] }
                return pending
            }
            for settings in latest { core.value.desktopSettingsChanged(settings) }
        }
    }
}

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
