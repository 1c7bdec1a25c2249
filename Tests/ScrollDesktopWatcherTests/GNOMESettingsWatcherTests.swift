import ScrollDesktop
@testable import ScrollDesktopGNOME
import Testing

/// The GNOME watcher against real GSettings: Debian's schemas, dconf's database and
/// dconf-service on a private session bus, written by the real `gsettings` (docs/design.md §23).
/// Serialized: the suite shares one dconf database (see `GNOMESession`).
@Suite(.serialized, .enabled(if: PrivateSessionBus.missing.isEmpty, "needs \(PrivateSessionBus.missing.joined(separator: " ")) (make test installs them)"))
struct GNOMESettingsWatcherTests {
    static let touchpad = "org.gnome.desktop.peripherals.touchpad"
    static let mouse = "org.gnome.desktop.peripherals.mouse"
    static let interface = "org.gnome.desktop.interface"

    init() throws {
        try GNOMESession.gsettings("set", Self.touchpad, "natural-scroll", "false")
        try GNOMESession.gsettings("set", Self.mouse, "natural-scroll", "false")
        try GNOMESession.gsettings("set", Self.interface, "enable-animations", "true")
    }

    static func settings(touchpads: Bool, mice: Bool, reducedMotion: Bool) -> DesktopSettings {
        DesktopSettings(desktop: .gnome, naturalScrolling: [.touchpads: touchpads, .mice: mice], reducedMotion: reducedMotion)
    }

    @Test func deliversWhatGNOMESaysAtStart() throws {
        try GNOMESession.gsettings("set", Self.mouse, "natural-scroll", "true")
        let watcher = GNOMESession.watcher()
        let sink = RecordingSink()
        let found = try watcher.start(delivering: sink)
        #expect(found?.contains(Self.touchpad) == true, "\(watcher.absence ?? "")")
        #expect(sink.received == [Self.settings(touchpads: false, mice: true, reducedMotion: false)])
        watcher.stop()
    }

    @Test func naturalScrollingOfTheTouchpadFollowsGsettingsSet() throws {
        let watcher = GNOMESession.watcher()
        let sink = RecordingSink()
        #expect(try watcher.start(delivering: sink) != nil, "\(watcher.absence ?? "")")
        try GNOMESession.gsettings("set", Self.touchpad, "natural-scroll", "true")
        let changed = sink.waitForLast { $0.naturalScrolling[.touchpads] == true }
        #expect(changed == Self.settings(touchpads: true, mice: false, reducedMotion: false))
        try GNOMESession.gsettings("set", Self.mouse, "natural-scroll", "true")
        #expect(sink.waitForLast { $0.naturalScrolling[.mice] == true } == Self.settings(touchpads: true, mice: true, reducedMotion: false))
        watcher.stop()
    }

    @Test func animationsOffIsReducedMotion() throws {
        let watcher = GNOMESession.watcher()
        let sink = RecordingSink()
        _ = try watcher.start(delivering: sink)
        try GNOMESession.gsettings("set", Self.interface, "enable-animations", "false")
        #expect(sink.waitForLast { $0.reducedMotion == true } == Self.settings(touchpads: false, mice: false, reducedMotion: true))
        try GNOMESession.gsettings("set", Self.interface, "enable-animations", "true")
        #expect(sink.waitForLast { $0.reducedMotion == false } != nil)
        watcher.stop()
    }

    /// Another key of the same schemas, or a write of the value a key has (which neither
    /// gsettings nor dconf tells as a change), delivers nothing: a later real change is the next
    /// delivery.
    @Test func otherKeysAndSameValuesDeliverNothing() throws {
        let watcher = GNOMESession.watcher()
        let sink = RecordingSink()
        _ = try watcher.start(delivering: sink)
        try GNOMESession.gsettings("set", Self.touchpad, "tap-to-click", "true")
        try GNOMESession.gsettings("set", Self.interface, "enable-animations", "true")
        try GNOMESession.gsettings("set", Self.mouse, "natural-scroll", "true")
        #expect(sink.waitForLast { $0.naturalScrolling[.mice] == true } != nil)
        #expect(sink.received.count == 2)
        watcher.stop()
    }

    /// After `stop()` returns, its thread has ended and a change reaches no sink: a second
    /// watcher sees it, and by then the first would have too.
    @Test func nothingIsDeliveredAfterStop() throws {
        let first = GNOMESession.watcher()
        let stopped = RecordingSink()
        _ = try GNOMESession.shared.get()
        let threads = ThreadCensus.count(named: "scrolld-gnome")
        _ = try first.start(delivering: stopped)
        #expect(ThreadCensus.count(named: "scrolld-gnome") == threads + 1)
        first.stop()
        #expect(ThreadCensus.count(named: "scrolld-gnome") == threads)
        let second = GNOMESession.watcher()
        let running = RecordingSink()
        _ = try second.start(delivering: running)
        try GNOMESession.gsettings("set", Self.touchpad, "natural-scroll", "true")
        #expect(running.waitForLast { $0.naturalScrolling[.touchpads] == true } != nil)
        #expect(stopped.received.count == 1)
        second.stop()
    }
}
