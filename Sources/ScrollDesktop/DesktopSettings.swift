/// What the user chose in their desktop for scrolling, as one desktop's interface says it
/// (docs/design.md §23). Every field is optional: an absent entry means this desktop does not
/// say, and scrolld's own configuration or its defaults decide.
public struct DesktopSettings: Sendable, Equatable {
    /// The desktop these settings were read from.
    public var desktop: Desktop
    /// Natural (reversed) scrolling, per class of device or per device.
    public var naturalScrolling: [DesktopDeviceMatch: Bool]
    /// The desktop's scroll factor, multiplied into a device's `speed`; finite and > 0.
    public var scrollFactor: [DesktopDeviceMatch: Double]
    /// Animations turned off (GNOME `enable-animations = false`, KDE
    /// `AnimationDurationFactor = 0`, the portal's `reduced-motion`).
    public var reducedMotion: Bool?
    /// The desktop's files that are there but were not read (KDE's past their size limit):
    /// what they say is missing from these settings, and the daemon's log says so.
    public var unread: [UnreadFile]
    /// The desktop's files it looked for and did not find (KDE's), so that the log can tell a
    /// file that stopped being unread because it is gone from one that is read again.
    public var absent: [String]

    public init(
        desktop: Desktop,
        naturalScrolling: [DesktopDeviceMatch: Bool] = [:],
        scrollFactor: [DesktopDeviceMatch: Double] = [:],
        reducedMotion: Bool? = nil,
        unread: [UnreadFile] = [],
        absent: [String] = []
    ) {
        self.desktop = desktop
        self.naturalScrolling = naturalScrolling
        self.scrollFactor = scrollFactor
        self.reducedMotion = reducedMotion
        self.unread = unread
        self.absent = absent
    }
}

/// A desktop's file that was not read, and why (`is over 4 MiB`), as the log says it.
public struct UnreadFile: Sendable, Equatable {
    public var path: String
    public var reason: String

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}

/// A desktop scrolld follows, named as `devices` reports a setting's source (`desktop:gnome`).
public enum Desktop: String, Sendable, Hashable, CaseIterable {
    case gnome, kde, sway, portal

    /// The source name `devices` shows for a setting this desktop decided.
    public var sourceName: String { "desktop:\(rawValue)" }
}

/// Which devices a desktop's setting applies to.
public enum DesktopDeviceMatch: Sendable, Hashable {
    /// Every touchpad (GNOME's `org.gnome.desktop.peripherals.touchpad`, sway's `type:touchpad`).
    case touchpads
    /// Every pointer that is not a touchpad (GNOME's `…peripherals.mouse`, sway's `type:pointer`).
    case mice
    /// One device as the desktop names it: its name as libinput reports it, with the USB
    /// vendor and product where the desktop keys on them (KDE's `[Libinput][V][P][NAME]`
    /// groups, sway's `V:P:NAME` identifiers).
    case device(name: String, vendor: UInt32?, product: UInt32?)
}

/// Receives one desktop's settings: once when watching starts, then after every change.
/// Called on the watcher's own thread; an implementation hops to where it applies them.
public protocol DesktopSettingsSink: AnyObject, Sendable {
    func desktopSettingsChanged(_ settings: DesktopSettings)
}

/// Watches one desktop's settings through that desktop's own interface, never by polling:
/// GSettings change signals, inotify, sway's IPC subscription, the portal's `SettingChanged`.
public protocol DesktopSettingsWatcher: Sendable {
    var desktop: Desktop { get }
    /// Starts watching and delivers the current settings to `sink`. Returns what was found,
    /// for the log ("GSettings on the session bus"), or nil when this desktop is not present
    /// here (then nothing is watched and nothing is delivered).
    func start(delivering sink: any DesktopSettingsSink) throws -> String?
    /// Stops watching; no call to the sink follows its return.
    func stop()
}
