import ScrollModel

/// `[containers.NAME]` as written, resolved into a `ContainerConfiguration` on demand.
public struct ContainerSettings: Sendable {
    public let name: String
    public var containerSize = Size(width: 800, height: 600)
    /// nil: 800×20000 for plain content, the ideal size when rows or a header define it.
    public var contentSize: Size?
    public var insets = EdgeInsets.zero
    public var axes = Axis.Set.vertical
    public var scrollTarget = ScrollTargetBehavior.none
    public var devices: [String] = []
    /// `anchor`: the edge the container starts at and holds on to (docs/design.md §12).
    public var anchor = DefaultScrollAnchor.top
    /// `parent`: the container this one is nested in (docs/design.md §14); nil (or `""`): none.
    public var parent: String?
    /// `overscroll`: what a gesture pushing against an edge does (docs/design.md §14).
    public var overscroll = OverscrollBehavior.auto
    /// `touch_frame`: where the container lies on a touchscreen, normalized (docs/design.md
    /// §25); nil: it gets no touches.
    public var touchFrame: Rect?
    /// `directional_lock`, `bounce`, `snap_type`, `snap_proximity`, `snap_stop`,
    /// `indicator_min_length`, `indicator_linger_ms` (docs/design.md §22).
    public var gestures = GestureSettings()
    public var header: [String: SettingValue]?
    public var rows: [String: SettingValue]? {
        didSet { listedHeights = nil }
    }
    /// `rows.heights` read into row heights as it was set: a file's list may hold ten million,
    /// and is read when the file is parsed (off the daemon's loop), while resolving the
    /// container, at every reload and on the loop, then costs nothing a row. Nil once `rows`
    /// changed since.
    private var listedHeights: RowHeights?
    /// `refresh` (docs/design.md §21): `threshold` and `height`; nil or empty: no pull to refresh.
    public var refresh: [String: SettingValue]?
    /// The rows' heights after `configure` edits (`insert`, `remove`), which `rows` no longer
    /// describes; nil while the rows are as `rows` describes them. A new description (`count`,
    /// `height` or `heights`) replaces them.
    public internal(set) var editedHeights: RowHeights?
    public var physics: [(key: String, value: SettingValue)] = []
    /// The keys of `contentSize` or `touch_frame` given one at a time (`--set
    /// containers.NAME.touch_frame.x=0`) to a container without one, by the table-valued key
    /// they belong to: kept until the table is whole, when it becomes the value. Meanwhile the
    /// container does not resolve, as one with `refresh.threshold` and no `refresh.height`.
    var unfinishedTables: [String: [(String, SettingValue)]] = [:]

    public static let defaultContentSize = Size(width: 800, height: 20000)

    public init(name: String) {
        self.name = name
    }

    static let headerKeys = ["min_height", "max_height", "stretch", "snap", "mode"]
    static let rowKeys = ["count", "height", "heights", "runs", "top", "threshold", "visible_in", "sticky"]
    static let refreshKeys = ["threshold", "height"]
    /// The row keys that describe the heights: setting one describes the rows anew.
    static let heightKeys: Set<String> = ["count", "height", "heights", "runs"]

    /// `path`: the key below `containers.NAME`, in its canonical spelling (``KeySpelling``);
    /// `key`: the whole key as written, which errors name.
    mutating func set(_ path: [String], _ value: SettingValue, key: String) throws(ConfigurationError) {
        switch (path.count, path[0]) {
        case (1, "containerSize"): containerSize = try value.size(key)
        case (1, "contentSize"):
            contentSize = try value.size(key)
            unfinishedTables["contentSize"] = nil
        case (1, "insets"): insets = try value.insets(key)
        case (1, "axes"): axes = try value.axes(key)
        case (1, "scroll_target"): scrollTarget = try value.choice(key, ScrollTargetBehavior.self)
        case (1, "anchor"): anchor = try value.anchor(key)
        case (1, "devices"): devices = try value.strings(key)
        case (1, "parent"):
            // Whether the name exists and makes no cycle is checked once every key is set
            // (`Configuration.checkNesting`): a file may name a container defined further down.
            let parent = try value.string(key)
            self.parent = parent.isEmpty ? nil : parent
        case (1, "overscroll"): overscroll = try value.choice(key, OverscrollBehavior.self)
        case (1, "touch_frame"):
            touchFrame = try value.touchFrame(key)
            unfinishedTables["touch_frame"] = nil
        case (2, _) where Self.tableKeys[path[0]] != nil: try setTableKey(path[0], path[1], value, key: key)
        case (1, _) where GestureSettings.keys.contains(path[0]): try gestures.set(path[0], value, key: key)
        case (1, "header"), (1, "rows"), (1, "physics"), (1, "refresh"):
            guard case .object(let fields) = value else { throw value.fail(key, "a table") }
            // An empty refresh table takes pull to refresh away (as an empty touch_frame does);
            // a header or rows table, even empty, brings them into being as a file's section
            // does, so that `header = {}` is a header without max_height, refused when the
            // container is resolved, not a key that changed nothing.
            if path[0] == "refresh" && fields.isEmpty { refresh = nil }
            if path[0] == "header", header == nil { header = [:] }
            if path[0] == "rows", rows == nil { rows = [:] }
            for (field, fieldValue) in fields { try set([path[0], field], fieldValue, key: "\(key).\(field)") }
        case (2, "refresh"):
            guard Self.refreshKeys.contains(path[1]) else {
                throw ConfigurationError(key: key, message: "unknown refresh key (\(Self.refreshKeys.joined(separator: ", ")))")
            }
            _ = try value.positive(key)
            refresh = (refresh ?? [:]).merging([path[1]: value]) { $1 }
        case (2, "header"): try setHeader(path[1], value, key: key)
        case (2, "rows"): try setRow(path[1], value, key: key)
        case (2, "physics"):
            try ScrollPhysics.validate(path[1], value, key: key)
            physics.removeAll { $0.key == path[1] }
            physics.append((path[1], value))
        default:
            throw ConfigurationError(
                key: key,
                message: "unknown container key (containerSize.*, contentSize.*, insets.*, axes, scroll_target, anchor, devices, parent, overscroll, touch_frame.*, directional_lock, bounce, snap_type, snap_proximity, snap_stop, indicator_min_length, indicator_linger_ms, header.*, rows.*, refresh.*, physics.*)"
            )
        }
    }

    /// `header.NAME`, checked and kept as written.
    private mutating func setHeader(_ name: String, _ value: SettingValue, key: String) throws(ConfigurationError) {
        guard Self.headerKeys.contains(name) else {
            throw ConfigurationError(key: key, message: "unknown header key (\(Self.headerKeys.joined(separator: ", ")))")
        }
        switch name {
        case "stretch", "snap": _ = try value.bool(key)
        case "mode": _ = try value.choice(key, HeaderMode.self)
        default: _ = try value.nonNegative(key)
        }
        header = (header ?? [:]).merging([name: value]) { $1 }
    }

    /// `rows.NAME`, checked and kept as written; a `heights` list is read into row heights now.
    private mutating func setRow(_ name: String, _ value: SettingValue, key: String) throws(ConfigurationError) {
        guard Self.rowKeys.contains(name) else {
            if RowEdit.kinds.contains(name) {
                throw ConfigurationError(key: key, message: "insert and remove edit the rows of a running container (configure's rows, alone); a configuration describes rows with count and height, or heights")
            }
            throw ConfigurationError(key: key, message: "unknown rows key (\(Self.rowKeys.joined(separator: ", ")))")
        }
        let listed = try Self.checkRow(name, value, key: key)
        let kept = listedHeights
        rows = (rows ?? [:]).merging([name: value]) { $1 }
        // `runs`, `heights` and `count` each describe every row: the last one given holds (a
        // `count` after a `heights` list is a list of `count` rows of `height`, not ignored).
        for other in ["runs", "heights", "count"] where other != name && ["runs", "heights", "count"].contains(name) {
            rows?[other] = nil
        }
        // Set after `rows`, whose every change forgets them; a list still in place keeps its.
        listedHeights = listed ?? (rows?["heights"] == nil ? nil : kept)
        if Self.heightKeys.contains(name) { editedHeights = nil }
    }

    /// Checks the value of the rows key `name`; the heights a `heights` list gives.
    static func checkRow(_ name: String, _ value: SettingValue, key: String) throws(ConfigurationError) -> RowHeights? {
        switch name {
        case "count":
            guard case .integer(let n) = value, n >= 0, n <= Limits.rows else {
                throw ConfigurationError(key: key, message: "expected a row count between 0 and \(Limits.rows), got \(value.rendered)")
            }
        case "heights":
            return .explicit(try value.array(key).map { (item: SettingValue) throws(ConfigurationError) in try item.nonNegative(key) })
        case "runs":
            _ = try runs(value, key: key)
        case "threshold":
            let t = try value.number(key)
            guard t >= 0, t < 1 else { throw ConfigurationError(key: key, message: "must be in [0, 1), got \(value.rendered)") }
        case "visible_in":
            _ = try value.choice(key, RowVisibilityArea.self)
        case "sticky":
            _ = try stickyRows(value, key: key)
        default:
            _ = try value.nonNegative(key)
        }
        return nil
    }

    func resolve(physics: ScrollPhysics) throws(ConfigurationError) -> ContainerConfiguration {
        try checkTablesAreWhole()
        let prefix = "containers.\(name)"
        var header: HeaderConfiguration?
        if let fields = self.header {
            guard let max = fields["max_height"] else {
                throw ConfigurationError(key: "\(prefix).header.max_height", message: "a header needs max_height")
            }
            let maxHeight = try max.number("\(prefix).header.max_height")
            let minHeight = try fields["min_height"]?.number("\(prefix).header.min_height") ?? 0
            guard minHeight <= maxHeight else {
                throw ConfigurationError(key: "\(prefix).header.min_height", message: "must not exceed max_height (\(minHeight) > \(maxHeight))")
            }
            header = HeaderConfiguration(
                minHeight: minHeight,
                maxHeight: maxHeight,
                stretch: try fields["stretch"]?.bool("\(prefix).header.stretch") ?? true,
                snap: try fields["snap"]?.bool("\(prefix).header.snap") ?? true,
                mode: try fields["mode"]?.choice("\(prefix).header.mode", HeaderMode.self) ?? .pinned
            )
        }
        let rows = try resolveRows()
        let refresh = try resolveRefresh()
        // The content takes its ideal size when rows or a header define one; plain content keeps
        // the built-in 800×20000 (docs/design.md §8) unless a size is configured.
        let content = contentSize ?? ((rows != nil || header != nil) ? nil : Self.defaultContentSize)
        return ContainerConfiguration(
            containerSize: containerSize,
            contentSize: content,
            contentInsets: insets,
            axes: axes,
            header: header,
            rows: rows,
            physics: physics,
            scrollTarget: scrollTarget,
            devices: devices,
            anchor: anchor,
            parent: parent,
            overscroll: overscroll,
            touchFrame: touchFrame,
            refresh: refresh
        ).with(gestures: gestures)
    }

    /// The rows as configured and edited; nil without rows.
    func resolveRows() throws(ConfigurationError) -> RowsConfiguration? {
        guard let fields = self.rows else { return nil }
        let prefix = "containers.\(name).rows"
        let heights: RowHeights
        if let editedHeights {
            heights = editedHeights
        } else if let runs = fields["runs"] {
            heights = .runs(try Self.runs(runs, key: "\(prefix).runs"))
        } else if let listedHeights {
            heights = listedHeights
        } else if let list = fields["heights"] {
            // The key is made once, not once a row: a list may hold ten million.
            let key = "\(prefix).heights"
            heights = .explicit(try list.array(key).map { (v: SettingValue) throws(ConfigurationError) in try v.number(key) })
        } else {
            guard let count = fields["count"], let height = fields["height"] else {
                throw ConfigurationError(key: prefix, message: "rows need count and height, or heights")
            }
            guard case .integer(let n) = count else { throw count.fail("\(prefix).count", "an integer") }
            heights = .uniform(count: n, height: try height.number("\(prefix).height"))
        }
        let sticky = try fields["sticky"].map { (value: SettingValue) throws(ConfigurationError) in try Self.stickyRows(value, key: "\(prefix).sticky") } ?? []
        // Indices name the rows as described; after edits (insert, remove) those past the end
        // are ignored (docs/decisions.md).
        if editedHeights == nil, let last = sticky.last, last >= heights.count {
            throw ConfigurationError(key: "\(prefix).sticky", message: "row \(last) is past the last row (the list has \(heights.count) rows)")
        }
        return RowsConfiguration(
            heights: heights,
            height: try fields["height"]?.number("\(prefix).height"),
            top: try fields["top"]?.number("\(prefix).top"),
            threshold: try fields["threshold"]?.number("\(prefix).threshold") ?? 0.5,
            visibleIn: try fields["visible_in"]?.choice("\(prefix).visible_in", RowVisibilityArea.self) ?? .container,
            sticky: sticky
        )
    }

    /// Applies a row edit to the rows in force (as configured and edited so far). The edited
    /// heights are kept apart from the description, whose `count` follows the edit and whose
    /// `heights` list, no longer true, is dropped.
    mutating func edit(_ edit: RowEdit) throws(ConfigurationError) {
        let prefix = "containers.\(name).rows"
        guard let current = try resolveRows() else {
            throw ConfigurationError(key: prefix, message: RowEditError.noRows.message)
        }
        let edited: RowsConfiguration
        do {
            edited = try current.applying(edit)
        } catch {
            throw ConfigurationError(key: error.field == "rows" ? prefix : "\(prefix).\(error.field)", message: error.message)
        }
        editedHeights = edited.heights
        rows?["count"] = .integer(edited.heights.count)
        rows?["heights"] = nil
        rows?["runs"] = nil
    }
}

extension ContainerSettings {
    /// `rows.runs`: `[[count, height], …]`, runs of equal heights in order (how rows edited by
    /// `configure` are written down, docs/config.md), at most ``Limits/rows`` rows in all.
    static func runs(_ value: SettingValue, key: String) throws(ConfigurationError) -> [(count: Int, height: Double)] {
        let items = try value.array(key)
        var runs: [(count: Int, height: Double)] = []
        runs.reserveCapacity(items.count)
        var rows = 0
        for item in items {
            guard case .array(let pair) = item, pair.count == 2, case .integer(let count) = pair[0], count >= 0, count <= Limits.rows else {
                throw ConfigurationError(key: key, message: "expected [count, height] pairs (a count between 0 and \(Limits.rows), a height ≥ 0), got \(item.rendered)")
            }
            let height = try pair[1].nonNegative(key)
            rows += count
            guard rows <= Limits.rows else {
                throw ConfigurationError(key: key, message: "expected at most \(Limits.rows) rows in all, got more")
            }
            runs.append((count, height))
        }
        return runs
    }

    /// `rows.sticky` (docs/design.md §21): at most ``Limits/stickyRows`` row indices, each an
    /// integer in `[0, Limits.rows)`, strictly ascending.
    static func stickyRows(_ value: SettingValue, key: String) throws(ConfigurationError) -> [Int] {
        let items = try value.array(key)
        guard items.count <= Limits.stickyRows else {
            throw ConfigurationError(key: key, message: "at most \(Limits.stickyRows) sticky rows, got \(items.count)")
        }
        var rows: [Int] = []
        rows.reserveCapacity(items.count)
        for item in items {
            guard case .integer(let k) = item, k >= 0, k < Limits.rows else {
                throw ConfigurationError(key: key, message: "expected row indices (integers between 0 and \(Limits.rows - 1)), got \(item.rendered)")
            }
            if let previous = rows.last, k <= previous {
                throw ConfigurationError(key: key, message: "row indices must be strictly ascending (\(k) after \(previous))")
            }
            rows.append(k)
        }
        return rows
    }

    /// `refresh` (docs/design.md §21): both keys, `0 < height ≤ threshold`; nil when not
    /// configured (or emptied).
    func resolveRefresh() throws(ConfigurationError) -> RefreshConfiguration? {
        guard let fields = refresh, !fields.isEmpty else { return nil }
        let prefix = "containers.\(name).refresh"
        guard let threshold = fields["threshold"], let height = fields["height"] else {
            let missing = fields["threshold"] == nil ? "threshold" : "height"
            throw ConfigurationError(key: "\(prefix).\(missing)", message: "refresh needs threshold and height")
        }
        let d = try threshold.positive("\(prefix).threshold")
        let r = try height.positive("\(prefix).height")
        guard r <= d else {
            throw ConfigurationError(key: "\(prefix).height", message: "must not exceed refresh.threshold (\(r) > \(d))")
        }
        return RefreshConfiguration(threshold: d, height: r)
    }
}
