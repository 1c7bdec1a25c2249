/// The top-level keys of a request line, of every op.
enum RequestKey: Int, ObjectSchema {
    case op, id, container, rate, x, y, dx, dy, animation
    // scrollTo's positions (docs/design.md §12); `anchor` is also configure's container key
    case row, anchor, edge
    // observe (docs/design.md §13)
    case of, step, threshold, distance, axis
    // configure's settings
    case containerSize, contentSize, insets, axes, header, rows, physics, scrollTarget, devices, owned
    // configure's nesting keys (docs/design.md §14)
    case parent, overscroll
    // configure's touchscreen frame (docs/design.md §25)
    case touchFrame
    // configure's gesture keys (docs/design.md §22)
    case directionalLock, bounce, snapType, snapProximity, snapStop, indicatorMinLength, indicatorLingerMs
    // subscribe's and observe's waiting (docs/design.md §20)
    case wait
    // configure's pull to refresh (docs/design.md §21)
    case refresh

    static let spellings: [(StaticString, RequestKey)] = [
        ("op", .op), ("id", .id), ("container", .container), ("rate", .rate),
        ("x", .x), ("y", .y), ("dx", .dx), ("dy", .dy), ("animation", .animation),
        ("containerSize", .containerSize), ("contentSize", .contentSize),
        ("contentInsets", .insets), ("insets", .insets), ("axes", .axes), ("header", .header),
        ("rows", .rows), ("physics", .physics), ("scrollTarget", .scrollTarget),
        ("scroll_target", .scrollTarget), ("devices", .devices),
        ("row", .row), ("anchor", .anchor), ("edge", .edge), ("of", .of), ("step", .step),
        ("threshold", .threshold), ("distance", .distance), ("axis", .axis), ("owned", .owned),
        ("parent", .parent), ("overscroll", .overscroll), ("touchFrame", .touchFrame),
        ("touch_frame", .touchFrame), ("wait", .wait), ("refresh", .refresh),
        ("directionalLock", .directionalLock), ("directional_lock", .directionalLock), ("bounce", .bounce),
        ("snapType", .snapType), ("snap_type", .snapType), ("snapProximity", .snapProximity),
        ("snap_proximity", .snapProximity), ("snapStop", .snapStop), ("snap_stop", .snapStop),
        ("indicatorMinLength", .indicatorMinLength), ("indicator_min_length", .indicatorMinLength),
        ("indicatorLingerMs", .indicatorLingerMs), ("indicator_linger_ms", .indicatorLingerMs),
    ]

    /// configure's settings, with their configuration names.
    static let settings: [(RequestKey, String)] = [
        (.containerSize, "containerSize"), (.contentSize, "contentSize"), (.insets, "insets"),
        (.axes, "axes"), (.header, "header"), (.rows, "rows"), (.physics, "physics"),
        (.scrollTarget, "scroll_target"), (.devices, "devices"), (.anchor, "anchor"),
        (.parent, "parent"), (.overscroll, "overscroll"), (.touchFrame, "touch_frame"),
        (.refresh, "refresh"),
        (.directionalLock, "directional_lock"), (.bounce, "bounce"), (.snapType, "snap_type"),
        (.snapProximity, "snap_proximity"), (.snapStop, "snap_stop"),
        (.indicatorMinLength, "indicator_min_length"), (.indicatorLingerMs, "indicator_linger_ms"),
    ]

    /// The settings whose members are configuration keys themselves, written snake_case there.
    var hasConfigurationMembers: Bool {
        self == .header || self == .rows || self == .physics || self == .refresh
    }

    /// The keys a configure request may have; others are mistakes worth reporting, since a
    /// setting silently dropped would leave the container not as the client believes.
    var isConfigureKey: Bool {
        switch self {
        case .rate, .x, .y, .dx, .dy, .row, .edge, .of, .step, .threshold, .distance, .axis, .wait: false
        default: true
        }
    }

    static let configureKeys = "op, id, container, containerSize, contentSize, contentInsets, axes, header, rows, physics, scrollTarget, anchor, devices, parent, overscroll, touchFrame, refresh, directionalLock, bounce, snapType, snapProximity, snapStop, indicatorMinLength, indicatorLingerMs, owned, animation"
}
