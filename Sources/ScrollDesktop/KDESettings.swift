/// KDE Plasma's settings for scrolling (docs/design.md §23), read from its files in
/// `$XDG_CONFIG_HOME`:
///
/// - `kcminputrc`: KWin's per-device groups `[Libinput][VENDOR][PRODUCT][NAME]` (USB ids in
///   decimal, the name as libinput reports it) with `NaturalScroll` and `ScrollFactor`, and the
///   class defaults `[Libinput][Defaults][Touchpad]` and `[Libinput][Defaults][Pointer]`;
/// - `kdeglobals`: `[KDE] AnimationDurationFactor`, 0 meaning animations off.
public enum KDESettings {
    /// The desktop's settings from the two files' text (nil: the file does not exist).
    public static func settings(kcminputrc: String?, kdeglobals: String?) -> DesktopSettings {
        var settings = DesktopSettings(desktop: .kde)
        if let kcminputrc {
            read(KConfigFile(parsing: kcminputrc), into: &settings)
        }
        if let kdeglobals {
            let factor = KConfigFile.number(KConfigFile(parsing: kdeglobals).value("AnimationDurationFactor", in: ["KDE"]))
            if let factor, factor >= 0 { settings.reducedMotion = factor == 0 }
        }
        return settings
    }

    private static func read(_ file: KConfigFile, into settings: inout DesktopSettings) {
        for (path, entries) in file.groups where path.first == "Libinput" {
            let match: DesktopDeviceMatch
            switch path.count {
            case 3 where path[1] == "Defaults" && path[2] == "Touchpad": match = .touchpads
            case 3 where path[1] == "Defaults" && path[2] == "Pointer": match = .mice
            case 4:
                guard let vendor = UInt32(path[1]), let product = UInt32(path[2]) else { continue }
                match = .device(name: path[3], vendor: vendor, product: product)
            default: continue
            }
            if let natural = KConfigFile.bool(entries["NaturalScroll"]) {
                settings.naturalScrolling[match] = natural
            }
            if let factor = KConfigFile.number(entries["ScrollFactor"]), factor > 0 {
                settings.scrollFactor[match] = factor
            }
        }
    }
}
