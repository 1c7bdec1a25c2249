import ScrollModel

/// The latest settings of each desktop found (docs/design.md §23) and the desktops of the
/// running session (`XDG_CURRENT_DESKTOP`), which win: what the daemon follows.
public struct DesktopFollower: Sendable {
    /// Each desktop's latest settings, in the order they were first found.
    public private(set) var found: [DesktopSettings] = []
    /// The desktops of the running session, most specific first.
    public var current: [Desktop] = []

    public init() {}

    /// Takes `settings` as its desktop's latest and answers what all of them say together.
    public mutating func take(_ settings: DesktopSettings) -> DesktopInput {
        found.removeAll { $0.desktop == settings.desktop }
        found.append(settings)
        return DesktopMerge.input(found, current: current)
    }
}
