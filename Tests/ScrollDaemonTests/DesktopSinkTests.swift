import NIOCore
import ScrollDaemon
import ScrollDesktop
import Testing

/// A desktop's files rewritten faster than the loop applies them (docs/design.md §23): the
/// changes that come while one waits for the loop are merged, each desktop's latest applied
/// once, in the order the desktops came.
@Suite struct DesktopSinkTests {
    @Test func changesWaitingForTheLoopAreAppliedOnceTheLatestOfEachDesktop() throws {
        let logs = LogLines()
        let daemon = try EmbeddedDaemon(logs: logs)
        let sink = DesktopSink(core: NIOLoopBound(daemon.core, eventLoop: daemon.loop))
        // A hundred changes of KDE's reduced motion and one of GNOME's, before the loop runs.
        for change in 1...100 {
            sink.desktopSettingsChanged(DesktopSettings(desktop: .kde, reducedMotion: change % 2 == 0))
            if change == 50 { sink.desktopSettingsChanged(DesktopSettings(desktop: .gnome, naturalScrolling: [.touchpads: true])) }
        }
        daemon.loop.run()
        let applied = logs.lines.filter { $0.contains("following desktop:") }
        #expect(applied.count == 2, "\(applied)")
        #expect(applied.last?.hasSuffix("reduced motion on (desktop:kde)") == true, "\(applied)")
        #expect(daemon.core.session.configuration.desktop?.reducedMotion?.value == true)

        // Another change after the loop ran is applied on its own.
        sink.desktopSettingsChanged(DesktopSettings(desktop: .kde, reducedMotion: false))
        daemon.loop.run()
        #expect(logs.lines.filter { $0.contains("following desktop:") }.count == 3)
        #expect(daemon.core.session.configuration.desktop?.reducedMotion?.value == false)
    }
}
