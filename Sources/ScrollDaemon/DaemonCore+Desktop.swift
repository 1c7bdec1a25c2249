import ScrollDesktop
import ScrollModel
import ScrollSession

extension DaemonCore {
    /// A desktop's settings, read at start or after a change (docs/design.md §23): merged with
    /// the other desktops' and, when that changes what applies, put in force as a command, so
    /// the recording has it and a replay applies it at the same instant.
    package func desktopSettingsChanged(_ settings: DesktopSettings) {
        eventLoop.assertInEventLoop()
        let merged = desktops.take(settings)
        guard merged != session.configuration.desktop ?? DesktopInput() else { return }
        do {
            _ = try execute(.desktop(merged, at: eventLoop.timestamp))
            logger.info("following \(settings.desktop.sourceName): \(merged.summary)")
        } catch {
            logger.error("the desktop's settings were not applied: \(error.message)")
        }
        finish()
    }
}
