import ScrollModel

/// What the desktops found say together, as the engine applies it beneath scrolld's own
/// configuration (docs/design.md §23).
///
/// Between desktops: the desktop of the running session (`XDG_CURRENT_DESKTOP`) wins over
/// the portal, which wins over any other desktop found (the files of a desktop not running
/// still say what its user chose). For one device, an entry naming it beats a class entry,
/// whichever desktop each came from. A device is named by its name alone: the event log
/// knows no USB ids, and a replay must match as the live daemon did.
public enum DesktopMerge {
    /// The effective desktop layer from each desktop's latest settings.
    public static func input(_ settings: [DesktopSettings], current: [Desktop]) -> DesktopInput {
        var result = DesktopInput()
        for desktop in order(settings.map(\.desktop), current: current) {
            guard let one = settings.last(where: { $0.desktop == desktop }) else { continue }
            result.rules += rules(one)
            if let reduced = one.reducedMotion {
                result.reducedMotion = DesktopInput.Sourced(reduced, source: desktop.sourceName)
            }
        }
        // Past the limit the lowest layers go: the later rules are the ones that win.
        if result.rules.count > Limits.desktopRules { result.rules.removeFirst(result.rules.count - Limits.desktopRules) }
        return result
    }

    /// The desktops `XDG_CURRENT_DESKTOP` names (colon-separated, e.g. `ubuntu:GNOME`,
    /// `KDE`, `sway`), most specific first as the variable lists them.
    public static func current(_ variable: String?) -> [Desktop] {
        guard let variable else { return [] }
        return variable.split(separator: ":").compactMap { name in
            switch name.lowercased() {
            case "gnome", "gnome-classic", "gnome-flashback", "ubuntu", "unity": return .gnome
            case "kde": return .kde
            case "sway": return .sway
            default: return nil
            }
        }
    }

    /// Lowest first: desktops not running, the portal, then the running ones (the first named
    /// last, so it wins).
    static func order(_ found: [Desktop], current: [Desktop]) -> [Desktop] {
        let others = Desktop.allCases.filter { found.contains($0) && $0 != .portal && !current.contains($0) }
        let portal: [Desktop] = found.contains(.portal) ? [.portal] : []
        let running = current.reversed().filter { found.contains($0) }
        var seen = Set<Desktop>()
        return (others + portal + running).filter { seen.insert($0).inserted }
    }

    /// One desktop's entries as rules, class entries first, then devices by name, so the
    /// order (and a recording) never depends on a dictionary's.
    static func rules(_ settings: DesktopSettings) -> [DesktopInput.Rule] {
        var byDevices: [DesktopInput.Devices: DesktopInput.Rule] = [:]
        let source = settings.desktop.sourceName
        for (match, natural) in settings.naturalScrolling {
            byDevices[devices(match), default: DesktopInput.Rule(devices: devices(match), source: source)].naturalScrolling = natural
        }
        for (match, factor) in settings.scrollFactor where factor.isFinite && factor > 0 {
            let clamped = min(max(factor, Limits.desktopScrollFactor.lowerBound), Limits.desktopScrollFactor.upperBound)
            byDevices[devices(match), default: DesktopInput.Rule(devices: devices(match), source: source)].scrollFactor = clamped
        }
        return byDevices.values.sorted { rank($0.devices) < rank($1.devices) }
    }

    static func devices(_ match: DesktopDeviceMatch) -> DesktopInput.Devices {
        switch match {
        case .touchpads: return .touchpads
        case .mice: return .mice
        case .device(let name, _, _): return .named(name)
        }
    }

    private static func rank(_ devices: DesktopInput.Devices) -> (Int, String) {
        switch devices {
        case .touchpads: return (0, "")
        case .mice: return (1, "")
        case .named(let name): return (2, name)
        }
    }
}
