import ScrollModel

/// The keys of a container's table-valued keys, one at a time (`containerSize.width`,
/// `insets.top`, `touch_frame.x`): how `--set` reaches them, as it reaches `refresh.threshold`,
/// and what a file's error names (`containers.main.insets.left`).
extension ContainerSettings {
    /// Each table-valued key (in its canonical spelling, ``KeySpelling``) with its own keys.
    static let tableKeys: [String: [String]] = [
        "containerSize": SettingValue.sizeKeys,
        "contentSize": SettingValue.sizeKeys,
        "insets": SettingValue.insetKeys,
        "touch_frame": SettingValue.touchFrameKeys,
    ]

    /// `table.field` (`touch_frame.x`), checked as the table checks that key: the value of
    /// `table` with `field` changed, the others as they are. `contentSize` and `touch_frame`,
    /// which a container may not have, take their keys as they come (``unfinishedTables``) and
    /// the value once all are given.
    mutating func setTableKey(_ table: String, _ field: String, _ value: SettingValue, key: String) throws(ConfigurationError) {
        let keys = Self.tableKeys[table] ?? []
        guard keys.contains(field) else { throw SettingValue.unknownKey(key, of: table) }
        switch table {
        case "insets": _ = try value.number(key)
        case "touch_frame": _ = try value.touchFrameNumber(field, key)
        default: _ = try value.nonNegative(key)
        }
        var fields = unfinishedTables[table] ?? tableFields(of: table) ?? []
        fields.removeAll { $0.0 == field }
        fields.append((field, value))
        guard keys.allSatisfy({ wanted in fields.contains { $0.0 == wanted } }) else {
            unfinishedTables[table] = fields
            return
        }
        // Whole: set as the table would be (which forgets the keys kept so far).
        try set([table], .object(fields), key: String(key.dropLast(field.count + 1)))
    }

    /// The value of the table-valued key `table` as its table; nil when the container has none.
    private func tableFields(of table: String) -> [(String, SettingValue)]? {
        switch table {
        case "containerSize": Self.sizeFields(containerSize)
        case "contentSize": contentSize.map(Self.sizeFields)
        case "insets": [
            ("top", .double(insets.top)), ("leading", .double(insets.leading)),
            ("bottom", .double(insets.bottom)), ("trailing", .double(insets.trailing)),
        ]
        case "touch_frame": touchFrame.map { frame in [
            ("x", .double(frame.minX)), ("y", .double(frame.minY)),
            ("width", .double(frame.width)), ("height", .double(frame.height)),
        ] }
        default: nil
        }
    }

    private static func sizeFields(_ size: Size) -> [(String, SettingValue)] {
        [("width", .double(size.width)), ("height", .double(size.height))]
    }

    /// A `contentSize` or `touch_frame` given in part is refused when the container is
    /// resolved, at the first key it lacks, as a refresh without its height is.
    func checkTablesAreWhole() throws(ConfigurationError) {
        for table in ["contentSize", "touch_frame"] {
            guard let fields = unfinishedTables[table], let keys = Self.tableKeys[table] else { continue }
            let missing = keys.first { wanted in !fields.contains { $0.0 == wanted } } ?? keys[0]
            let list = keys.dropLast().joined(separator: ", ") + " and " + keys[keys.count - 1]
            throw ConfigurationError(key: "containers.\(name).\(table).\(missing)", message: "\(table) needs \(list)")
        }
    }
}
