import TOML
import ScrollModel

/// `configure`'s row edits (docs/design.md §12 "Row changes"): `rows` holding exactly one `insert`
/// or `remove` instead of a description.
extension RowEdit {
    /// The keys that make a `rows` table an edit.
    static let kinds: Set<String> = ["insert", "remove"]

    /// The edit a `rows` table holds; nil when it is a description (no `insert` or `remove`).
    /// An edit comes alone: `{"insert":{"at":K,"count":N,"height":h?}}`,
    /// `{"insert":{"at":K,"heights":[…]}}` or `{"remove":{"at":K,"count":N}}`. `key` is the
    /// table's key (`containers.NAME.rows`), which errors extend with the field at fault.
    public init?(rows value: SettingValue, key: String) throws(ConfigurationError) {
        guard case .object(let fields) = value, fields.contains(where: { Self.kinds.contains($0.0) }) else { return nil }
        guard fields.count == 1, let (kind, body) = fields.first else {
            let others = fields.map(\.0).filter { !Self.kinds.contains($0) }
            let what = others.isEmpty ? "insert and remove together" : "an edit together with " + others.map { TOMLKey.written([$0]) }.joined(separator: ", ")
            throw ConfigurationError(key: key, message: "a rows edit comes alone (exactly one insert or remove), got \(what)")
        }
        let editKey = "\(key).\(kind)"
        guard case .object(let members) = body else { throw body.fail(editKey, "a table") }
        var values: [String: SettingValue] = [:]
        let allowed = kind == "insert" ? ["at", "count", "height", "heights"] : ["at", "count"]
        for (name, member) in members {
            guard allowed.contains(name) else {
                throw ConfigurationError(key: "\(editKey).\(name)", message: "unknown \(kind) key (\(allowed.joined(separator: ", ")))")
            }
            values[name] = member
        }
        func integer(_ name: String) throws(ConfigurationError) -> Int {
            guard let value = values[name] else {
                throw ConfigurationError(key: "\(editKey).\(name)", message: "\(kind) needs \(name)")
            }
            guard case .integer(let n) = value, n >= 0 else { throw value.fail("\(editKey).\(name)", "a non-negative integer") }
            return n
        }
        let at = try integer("at")
        if kind == "remove" {
            self = .remove(at: at, count: try integer("count"))
            return
        }
        if let list = values["heights"] {
            guard values["count"] == nil, values["height"] == nil else {
                throw ConfigurationError(key: "\(editKey).heights", message: "give heights, or count with an optional height, not both")
            }
            let heightsKey = "\(editKey).heights"
            self = .insertHeights(at: at, heights: try list.array(heightsKey).map { (v: SettingValue) throws(ConfigurationError) in try v.nonNegative(heightsKey) })
            return
        }
        let height = try values["height"]?.nonNegative("\(editKey).height")
        self = .insert(at: at, count: try integer("count"), height: height)
    }
}

extension Configuration {
    /// Sets `configure`'s `rows` for container `name`: a description is merged key by key as the
    /// configuration file's keys are (`set`); an edit is applied to the rows in force and
    /// returned, so that the daemon hands it to
    /// `ScrollContainer.configure(_:edit:animation:at:)`, which keeps the content in place
    /// across it. A container that does not exist yet is created (and an edit then fails: it has
    /// no rows).
    @discardableResult
    public mutating func setRows(of name: String, _ value: SettingValue) throws(ConfigurationError) -> RowEdit? {
        let key = "containers.\(name).rows"
        guard let edit = try RowEdit(rows: value, key: key) else {
            try set(key, value)
            return nil
        }
        guard !name.isEmpty, !name.contains(".") else {
            throw ConfigurationError(key: key, message: "a container name must be non-empty and contain no '.'")
        }
        let index = self.index(ofContainer: name) ?? appendContainer(ContainerSettings(name: name))
        try containers[index].edit(edit)
        return edit
    }
}

extension Configuration {
    /// Takes container `name`'s rows back as a restart's store (docs/design.md §16) or a recorded
    /// `restore` wrote them (``ContainerSettings/takeBackEditedRows()``).
    public mutating func takeBackEditedRows(ofContainer name: String) throws(ConfigurationError) {
        guard let index = self.index(ofContainer: name) else { return }
        try containers[index].takeBackEditedRows()
    }
}

extension ContainerSettings {
    /// Rows edited by `configure` are written down as `runs` (``ContainerSettings/assignments``),
    /// with the sticky indices the edits left past the end, which are ignored (docs/design.md
    /// §21). Taken back, such rows are what the edits left — the heights edited, those indices
    /// ignored — not a description naming rows it does not have, which is refused. Rows
    /// without such indices stay as written.
    mutating func takeBackEditedRows() throws(ConfigurationError) {
        guard editedHeights == nil, let runs = rows?["runs"], let sticky = rows?["sticky"] else { return }
        let prefix = "containers.\(name).rows"
        let heights = RowHeights.runs(try Self.runs(runs, key: "\(prefix).runs"))
        guard let last = try Self.stickyRows(sticky, key: "\(prefix).sticky").last, last >= heights.count else { return }
        // As an edit leaves them: the count follows the heights, the description is gone.
        rows?["runs"] = nil
        rows?["count"] = .integer(heights.count)
        editedHeights = heights
    }
}
