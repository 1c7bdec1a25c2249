import ScrollDesktop
import ScrollModel
import Testing

/// Several desktops' settings merged, and the result resolved per device (docs/design.md §23).
@Suite struct DesktopMergeTests {
    @Test func theRunningDesktopWinsAndADeviceEntryBeatsAClassEntry() {
        let kde = DesktopSettings(desktop: .kde, naturalScrolling: [.touchpads: true], scrollFactor: [.mice: 2], reducedMotion: true)
        let sway = DesktopSettings(desktop: .sway, naturalScrolling: [.touchpads: false, .device(name: "Pad", vendor: 1, product: 2): true], reducedMotion: false)
        let underSway = DesktopMerge.input([kde, sway], current: DesktopMerge.current("sway"))
        #expect(underSway.naturalScrolling(forDevice: "Other pad", touchpad: true) == .init(false, source: "desktop:sway"))
        #expect(underSway.naturalScrolling(forDevice: "Pad", touchpad: true) == .init(true, source: "desktop:sway"))
        #expect(underSway.scrollFactor(forDevice: "Mouse", touchpad: false) == .init(2, source: "desktop:kde"))
        #expect(underSway.reducedMotion == .init(false, source: "desktop:sway"))
        let underKDE = DesktopMerge.input([kde, sway], current: DesktopMerge.current("KDE"))
        #expect(underKDE.naturalScrolling(forDevice: "Other pad", touchpad: true) == .init(true, source: "desktop:kde"))
        // A device entry beats the running desktop's class entry.
        #expect(underKDE.naturalScrolling(forDevice: "Pad", touchpad: true) == .init(true, source: "desktop:sway"))
        #expect(underKDE.reducedMotion == .init(true, source: "desktop:kde"))
        #expect(underKDE.naturalScrolling(forDevice: "Mouse", touchpad: false) == nil)
        #expect(underKDE.naturalScrolling(forDevice: "Touchscreen", touchpad: nil) == nil)
    }

    @Test func xdgCurrentDesktopNamesTheRunningDesktops() {
        #expect(DesktopMerge.current("ubuntu:GNOME") == [.gnome, .gnome])
        #expect(DesktopMerge.current("KDE") == [.kde])
        #expect(DesktopMerge.current("sway") == [.sway])
        #expect(DesktopMerge.current("XFCE") == [])
        #expect(DesktopMerge.current(nil) == [])
    }

    @Test func theConfigurationWinsOverTheDesktopKeyByKey() {
        let desktop = DesktopMerge.input([DesktopSettings(desktop: .kde, naturalScrolling: [.touchpads: true], scrollFactor: [.touchpads: 0.5])], current: [.kde])
        let free = InputShapingRules([], desktop: desktop)
        #expect(free.shaping(forDevice: "Pad", touchpad: true) == InputShaping(speedX: 0.5, speedY: 0.5, natural: true))
        #expect(free.effective(forDevice: "Pad", touchpad: true).speed == .init(0.5, source: "desktop:kde"))
        let configured = InputShapingRules([.init(speed: 3, naturalScrolling: false)], desktop: desktop)
        #expect(configured.shaping(forDevice: "Pad", touchpad: true) == InputShaping(speedX: 3, speedY: 3, natural: false))
        #expect(configured.effective(forDevice: "Pad", touchpad: true).naturalScrolling == .init(false, source: "config"))
        #expect(configured.effective(forDevice: "Pad", touchpad: true).speed == .init(3, source: "config"))
        // `speed_y` alone: the desktop's factor stays on the other axis.
        let oneAxis = InputShapingRules([.init(speedY: 2)], desktop: desktop)
        #expect(oneAxis.shaping(forDevice: "Pad", touchpad: true) == InputShaping(speedX: 0.5, speedY: 2, natural: true))
        #expect(InputShapingRules().effective(forDevice: "Pad", touchpad: true).naturalScrolling == .init(false, source: "default"))
    }
}
