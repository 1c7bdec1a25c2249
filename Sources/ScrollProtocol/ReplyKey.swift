/// The top-level keys of a reply line, of every type.
enum ReplyKey: Int, ObjectSchema {
    case type, id, `protocol`, server, containers, code, message
    case container, seq, t, phase, contentOffset, velocity, contentSize, containerSize, contentInsets, header, visibleRows
    case devices, ok, file
    case of, old, new, features, instance
    case input, paused, focus
    // docs/design.md §21
    case stickyRow, refreshing
    // docs/design.md §22
    case indicators
    // docs/design.md §23
    case reducedMotion

    static let spellings: [(StaticString, ReplyKey)] = [
        ("type", .type), ("id", .id), ("protocol", .protocol), ("server", .server),
        ("containers", .containers), ("code", .code), ("message", .message),
        ("container", .container), ("seq", .seq), ("t", .t), ("phase", .phase),
        ("contentOffset", .contentOffset), ("velocity", .velocity), ("contentSize", .contentSize),
        ("containerSize", .containerSize), ("contentInsets", .contentInsets), ("header", .header),
        ("visibleRows", .visibleRows), ("devices", .devices), ("ok", .ok), ("file", .file),
        ("of", .of), ("old", .old), ("new", .new), ("features", .features), ("instance", .instance), ("input", .input), ("paused", .paused),
        ("focus", .focus),
        ("stickyRow", .stickyRow), ("refreshing", .refreshing),
        ("indicators", .indicators),
        ("reducedMotion", .reducedMotion),
    ]
}

/// `{"x":…,"y":…}`
enum PointKey: Int, ObjectSchema {
    case x, y
    static let spellings: [(StaticString, PointKey)] = [("x", .x), ("y", .y)]
}

/// `{"width":…,"height":…}`
enum SizeKey: Int, ObjectSchema {
    case width, height
    static let spellings: [(StaticString, SizeKey)] = [("width", .width), ("height", .height)]
}

/// `{"top":…,"leading":…,"bottom":…,"trailing":…}`
enum InsetsKey: Int, ObjectSchema {
    case top, leading, bottom, trailing
    static let spellings: [(StaticString, InsetsKey)] = [
        ("top", .top), ("leading", .leading), ("bottom", .bottom), ("trailing", .trailing),
    ]
}

/// `{"height":…,"progress":…}`
enum HeaderKey: Int, ObjectSchema {
    case height, progress
    static let spellings: [(StaticString, HeaderKey)] = [("height", .height), ("progress", .progress)]
}

/// A state's `indicators` (docs/design.md §22): one thumb per axis the container scrolls.
enum IndicatorsKey: Int, ObjectSchema {
    case x, y
    static let spellings: [(StaticString, IndicatorsKey)] = [("x", .x), ("y", .y)]
}

/// `{"offset":…,"length":…,"visible":…}`: one axis' thumb.
enum IndicatorKey: Int, ObjectSchema {
    case offset, length, visible
    static let spellings: [(StaticString, IndicatorKey)] = [("offset", .offset), ("length", .length), ("visible", .visible)]
}

/// `{"first":…,"last":…}`
enum VisibleRowsKey: Int, ObjectSchema {
    case first, last
    static let spellings: [(StaticString, VisibleRowsKey)] = [("first", .first), ("last", .last)]
}

/// `{"row":…,"top":…}` (docs/design.md §21)
enum StickyRowKey: Int, ObjectSchema {
    case row, top
    static let spellings: [(StaticString, StickyRowKey)] = [("row", .row), ("top", .top)]
}

/// One device of a `devices` reply.
enum DeviceKey: Int, ObjectSchema {
    case id, name, caps, path, containers, rules, natural, speed
    static let spellings: [(StaticString, DeviceKey)] = [
        ("id", .id), ("name", .name), ("caps", .caps), ("path", .path), ("containers", .containers), ("rules", .rules),
        ("natural", .natural), ("speed", .speed),
    ]
}

/// `{"value":…,"source":…}`: a setting and where it came from (docs/design.md §23).
enum SourcedKey: Int, ObjectSchema {
    case value, source
    static let spellings: [(StaticString, SourcedKey)] = [("value", .value), ("source", .source)]
}

/// `{"state":…,"reason":…}` of a `devices` reply (docs/design.md §15).
enum InputStateKey: Int, ObjectSchema {
    case state, reason
    static let spellings: [(StaticString, InputStateKey)] = [("state", .state), ("reason", .reason)]
}
