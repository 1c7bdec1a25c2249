import ScrollDesktop
import Testing

/// KDE's files as KWin and Plasma write them (docs/design.md §23).
@Suite struct KDESettingsTests {
    static let kcminputrc = """
        [Keyboard]
        NumLock=0

        [Libinput][1267][12410][ELAN1300:00 04F3:3087 Touchpad]
        ClickMethod=2
        NaturalScroll=true
        ScrollFactor=0.5
        TapToClick=true

        [Libinput][1133][16505][Logitech G Pro\\sGaming Mouse]
        NaturalScroll=false
        ScrollFactor=2

        [Libinput][Defaults][Touchpad]
        NaturalScroll=true

        [Libinput][Defaults][Pointer]
        ScrollFactor=1.5

        [Mouse]
        X11LibInputXAccelProfileFlat=true
        """

    @Test func perDeviceGroupsAndClassDefaultsGiveNaturalScrollingAndScrollFactor() {
        let settings = KDESettings.settings(kcminputrc: Self.kcminputrc, kdeglobals: nil)
        #expect(settings.desktop == .kde)
        #expect(settings.naturalScrolling == [
            .device(name: "ELAN1300:00 04F3:3087 Touchpad", vendor: 1267, product: 12410): true,
            .device(name: "Logitech G Pro Gaming Mouse", vendor: 1133, product: 16505): false,
            .touchpads: true,
        ])
        #expect(settings.scrollFactor == [
            .device(name: "ELAN1300:00 04F3:3087 Touchpad", vendor: 1267, product: 12410): 0.5,
            .device(name: "Logitech G Pro Gaming Mouse", vendor: 1133, product: 16505): 2,
            .mice: 1.5,
        ])
        #expect(settings.reducedMotion == nil)
    }

    @Test func anAnimationDurationFactorOfZeroIsReducedMotion() {
        let off = KDESettings.settings(kcminputrc: nil, kdeglobals: "[General]\nfixed=Hack,10\n\n[KDE]\nAnimationDurationFactor=0\nLookAndFeelPackage=org.kde.breeze.desktop\n")
        #expect(off.reducedMotion == true)
        let slow = KDESettings.settings(kcminputrc: nil, kdeglobals: "[KDE]\nAnimationDurationFactor=0.5\n")
        #expect(slow.reducedMotion == false)
        let unset = KDESettings.settings(kcminputrc: nil, kdeglobals: "[KDE]\nSingleClick=false\n")
        #expect(unset.reducedMotion == nil)
    }

    @Test func valuesKDEWouldNotReadAreSkipped() {
        let text = """
            [Libinput][x][12410][Bad Vendor]
            NaturalScroll=true
            [Libinput][1][2][Bad Values]
            NaturalScroll=maybe
            ScrollFactor=-1
            [Libinput][1][2][Infinite]
            ScrollFactor=inf
            """
        let settings = KDESettings.settings(kcminputrc: text, kdeglobals: nil)
        #expect(settings.naturalScrolling.isEmpty)
        #expect(settings.scrollFactor.isEmpty)
    }

    @Test func kconfigEscapesAndEntryOptionsAreRead() {
        let file = KConfigFile(parsing: "[A][B\\x5dC]\nKey[$e]=a\\sb\\\\c\nKey[de]=ignored\n# comment\n")
        #expect(file.value("Key", in: ["A", "B]C"]) == "a b\\c")
        #expect(KConfigFile.bool("True") == true)
        #expect(KConfigFile.number("1.25") == 1.25)
    }
}
