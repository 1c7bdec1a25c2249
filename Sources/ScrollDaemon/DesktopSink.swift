import NIOCore
import ScrollDesktop
import Synchronization

/// Hands a watcher's settings, on the watcher's thread, to the loop that owns the core.
///
/// Settings that come while earlier ones of the same desktop wait for the loop replace them:
/// the loop applies each desktop's latest once, however fast its files are rewritten. Each
/// application resolves every container, so one task per change would queue more work than the
/// loop can do, and every client would wait behind it (docs/design.md §23).
package final class DesktopSink: DesktopSettingsSink {
    package let core: NIOLoopBound<DaemonCore>
    /// The settings not yet applied, the latest of each desktop in the order they came. Not
    /// empty exactly while a task that applies them is queued.
    private let pending = Mutex<[DesktopSettings]>([])

    package init(core: NIOLoopBound<DaemonCore>) {
        self.core = core
    }

    package func desktopSettingsChanged(_ settings: DesktopSettings) {
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
