import ScrollDesktop
import ScrollModel
import ScrollSession

extension DaemonCore {
    /// A desktop's settings, read at start or after a change (docs/design.md §23): merged with
    /// the other desktops' and, when that changes what applies, put in force as a command, so
    /// the recording has it and a replay applies it at the same instant.
    package func desktopSettingsChanged(_ settings: DesktopSettings) {
        eventLoop.assertInEventLoop()
        let before = desktops.found.first { $0.desktop == settings.desktop }?.unread ?? []
        logUnread(settings, before: before)
        let merged = desktops.take(settings)
        guard merged != session.configuration.desktop ?? DesktopInput() else { return }
        do {
            _ = try execute(.desktop(merged, at: eventLoop.timestamp))
            logger.info("following \(settings.desktop.sourceName): \(DesktopLogLine.summary(merged))")
        } catch {
            logger.error("the desktop's settings were not applied: \(error.message)")
        }
        finish()
    }

    /// Says when a desktop's file stops being read, and when it is read again or is gone: once
    /// per change, not at every event (a file over the limit stays so while it is rewritten).
    private func logUnread(_ settings: DesktopSettings, before: [UnreadFile]) {
        let unread = settings.unread
        for file in unread where !before.contains(file) {
            logger.warning("\(DesktopLogLine.shown(file.path)) \(DesktopLogLine.shown(file.reason)): not read; the desktop's settings from it are not followed")
        }
        for file in before where !unread.contains(where: { $0.path == file.path }) {
            let change = settings.absent.contains(file.path) ? "is gone" : "is read again"
            logger.notice("\(DesktopLogLine.shown(file.path)) \(change)")
        }
    }
}
