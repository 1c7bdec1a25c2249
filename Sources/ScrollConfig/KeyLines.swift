import TOML

/// The line each dotted key of a file is written on, from the lines the TOML reader keeps, so
/// that an error about a key (`Configuration.set` names the key it rejects, not where it came
/// from) points at the line that wrote it.
struct KeyLines {
    /// The first line of every dotted path, including the tables of inline tables and of
    /// arrays of tables (under the array's own path).
    private var lines: [String: Int] = [:]

    mutating func record(_ table: TOMLTable, path: [String]) {
        for entry in table {
            let childPath = path + [entry.key]
            let key = childPath.joined(separator: ".")
            lines[key] = min(lines[key] ?? .max, entry.line)
            record(entry.value, path: childPath)
        }
    }

    private mutating func record(_ value: TOMLValue, path: [String]) {
        switch value {
        case .table(let table): record(table, path: path)
        case .array(let items): for item in items { record(item, path: path) }
        default: break
        }
    }

    /// The line of `key` itself, if it is written in the file.
    func exactLine(of key: String) -> Int? {
        lines[key]
    }

    /// The line of `key`, else of its nearest enclosing table or key that is written (a missing
    /// `containers.main.header.max_height` points at `[containers.main.header]`).
    func line(of key: String) -> Int? {
        var parts = key.split(separator: ".", omittingEmptySubsequences: false)
        while !parts.isEmpty {
            if let line = lines[parts.joined(separator: ".")] { return line }
            parts.removeLast()
        }
        return nil
    }
}
