import ScrollDesktop
import ScrollDesktopPortal
import Testing

/// The portal watcher against a real D-Bus peer of the portal's Settings interface, on a private
/// session bus (docs/design.md §23): what it reads at start, what `SettingChanged` changes, and
/// when it finds nothing to watch.
/// Serialized: a test counts the watchers' threads.
@Suite(.serialized, .enabled(if: PrivateSessionBus.missing.isEmpty, "needs \(PrivateSessionBus.missing.joined(separator: " ")) (make test installs them)"))
struct PortalSettingsWatcherTests {
    @Test func readsReducedMotionAtStartAndFollowsSettingChanged() throws {
        let bus = try PrivateSessionBus()
        let peer = try PortalPeer(on: bus, reducedMotion: 0)
        let watcher = PortalSettingsWatcher(busAddress: bus.address)
        let sink = RecordingSink()
        let found = try watcher.start(delivering: sink)
        #expect(found != nil)
        #expect(sink.received == [DesktopSettings(desktop: .portal, reducedMotion: false)])

        try peer.setReducedMotion(1)
        #expect(sink.waitForLast { $0.reducedMotion == true } == DesktopSettings(desktop: .portal, reducedMotion: true))
        // Another setting of the namespace changes nothing here.
        try peer.set("org.freedesktop.appearance", "color-scheme", 1)
        // A value the portal does not document means no preference.
        try peer.setReducedMotion(7)
        #expect(sink.waitForLast { $0.reducedMotion == false } != nil)
        #expect(sink.received.map(\.reducedMotion) == [false, true, false])
        watcher.stop()
    }

    @Test func anOlderPortalIsReadWithRead() throws {
        let bus = try PrivateSessionBus()
        let peer = try PortalPeer(on: bus, reducedMotion: 1, version: 1)
        let watcher = PortalSettingsWatcher(busAddress: bus.address)
        let sink = RecordingSink()
        #expect(try watcher.start(delivering: sink) != nil)
        #expect(sink.received == [DesktopSettings(desktop: .portal, reducedMotion: true)])
        try peer.setReducedMotion(0)
        #expect(sink.waitForLast { $0.reducedMotion == false } != nil)
        watcher.stop()
    }

    /// After `stop()` returns, its thread has ended and a change reaches no sink: a second
    /// watcher, started after the first stopped, sees the change, and by then the first would
    /// have too.
    @Test func nothingIsDeliveredAfterStop() throws {
        let bus = try PrivateSessionBus()
        let peer = try PortalPeer(on: bus, reducedMotion: 0)
        let first = PortalSettingsWatcher(busAddress: bus.address)
        let stopped = RecordingSink()
        let threads = ThreadCensus.count(named: "scrolld-portal")
        #expect(try first.start(delivering: stopped) != nil)
        #expect(ThreadCensus.count(named: "scrolld-portal") == threads + 1)
        first.stop()
        #expect(ThreadCensus.count(named: "scrolld-portal") == threads)
        let second = PortalSettingsWatcher(busAddress: bus.address)
        let running = RecordingSink()
        #expect(try second.start(delivering: running) != nil)
        try peer.setReducedMotion(1)
        #expect(running.waitForLast { $0.reducedMotion == true } != nil)
        #expect(stopped.received.count == 1)
        second.stop()
    }

    @Test func noPortalOnTheBusIsNotPresent() throws {
        let bus = try PrivateSessionBus()
        let watcher = PortalSettingsWatcher(busAddress: bus.address)
        let sink = RecordingSink()
        let threads = ThreadCensus.count(named: "scrolld-portal")
        #expect(try watcher.start(delivering: sink) == nil)
        #expect(ThreadCensus.count(named: "scrolld-portal") == threads)
        #expect(watcher.absence?.contains("org.freedesktop.DBus.Error.ServiceUnknown") == true, "\(watcher.absence ?? "")")
        #expect(sink.received.isEmpty)
    }

    @Test func aPortalWithoutReducedMotionIsNotPresent() throws {
        let bus = try PrivateSessionBus()
        let peer = try PortalPeer(on: bus, reducedMotion: nil)
        let watcher = PortalSettingsWatcher(busAddress: bus.address)
        let sink = RecordingSink()
        #expect(try watcher.start(delivering: sink) == nil)
        #expect(watcher.absence?.contains("org.freedesktop.portal.Error.NotFound") == true, "\(watcher.absence ?? "")")
        #expect(sink.received.isEmpty)
        _ = peer
    }

    @Test func noSessionBusIsNotPresent() throws {
        let watcher = PortalSettingsWatcher(busAddress: "unix:path=/nonexistent/scrolld-test-bus")
        let sink = RecordingSink()
        #expect(try watcher.start(delivering: sink) == nil)
        #expect(watcher.absence?.hasPrefix("no session bus") == true, "\(watcher.absence ?? "")")
        #expect(sink.received.isEmpty)
    }
}
