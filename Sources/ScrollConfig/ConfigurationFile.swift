#if canImport(Glibc)
import Glibc
#endif
import TOMLKit

/// Loading a TOML configuration file (DESIGN §8) onto the built-in defaults.
///
/// Every value goes through `set` under its dotted key, so a file, `--set` and the defaults
/// share one set of rules. Keys are applied in source order, so when a file has several
/// mistakes the first one reported is the first one written. After the last key every
/// container is resolved, so problems between keys (header `min_height` above `max_height`,
/// rows without a height) fail at load time too, not when a client first asks.
extension Configuration {
    /// Reads and parses the file at `path`; errors carry `path` as their `file`.
    public static func load(contentsOf path: String) throws(ConfigurationError) -> Configuration {
        try parse(readFile(path), file: path)
    }

    /// Parses TOML `text` onto the built-in defaults. `file` names the source in errors.
    ///
    /// A file only changes what it mentions: a file that defines `[containers.side]` keeps the
    /// built-in `main` next to it.
    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> Configuration {
        let locator = TOMLKeyLocator(text)
        if let trap = locator.abortingSyntax {
            // TOMLKit's toml++ would abort the process on this text (see `abortingSyntax`):
            // report it as toml++ reports its neighbours, unless the statements before it hold
            // a mistake, which toml++ would have reported first.
            _ = try table(String(decoding: text.utf8.prefix(trap.statementOffset), as: UTF8.self), file: file)
            let detail = switch trap.context {
            case .tableHeader: " while parsing table header: expected bare key starting character or string delimiter"
            case .array: " while parsing array: expected value or closing ']'"
            case .time: " while parsing time: expected 2-digit hour"
            }
            throw syntaxError(line: trap.line, column: trap.column, detail: detail + ", saw \(describe(trap.found))", text: text, file: file)
        }
        let root = try table(text, file: file)

        var items: [FileItem] = []
        collect(root, path: [], into: &items)
        for index in items.indices { items[index].line = locator.exactLine(of: items[index].key) }
        // Stable, so keys of one inline table keep TOMLKit's order after their section.
        let ordered = items.enumerated().sorted { a, b in
            (a.element.line ?? .max, a.offset) < (b.element.line ?? .max, b.offset)
        }.map(\.element)

        do throws(ConfigurationError) {
            return try build(ordered, locator: locator)
        } catch {
            var located = error
            located.file = file
            throw located
        }
    }

    /// Applies the items in order onto the defaults, then resolves everything.
    private static func build(_ items: [FileItem], locator: TOMLKeyLocator) throws(ConfigurationError) -> Configuration {
        var configuration = Configuration()
        for item in items {
            do {
                try configuration.apply(item)
            } catch {
                // A rejected sub-key of an inline table (`containerSize.width`) has a line of
                // its own; anything else is on the item's line.
                var located = error
                located.line = locator.exactLine(of: error.key) ?? item.line
                throw located
            }
        }
        do {
            _ = try configuration.resolvePhysics()
            for container in configuration.containers { _ = try configuration.resolve(container: container.name) }
        } catch {
            var located = error
            located.line = locator.line(of: error.key)
            throw located
        }
        return configuration
    }

    /// One table the file opens or one value it assigns, with its dotted key.
    private struct FileItem {
        var path: [String]
        /// nil: a section (`[containers.side]`), which exists even when empty.
        var value: TOMLValueConvertible?
        var line: Int?

        var key: String { path.joined(separator: ".") }
    }

    /// Tables that are sections are walked into, key by key; any other table is a value of its
    /// key (`containerSize = { width = 800, height = 600 }`) and reaches `set` as `.table`.
    private static func isSection(_ path: [String]) -> Bool {
        switch (path.count, path.first) {
        case (1, "daemon"), (1, "physics"), (1, "containers"), (2, "containers"), (1, "input"): return true
        case (2, "input"): return path[1] == "devices"
        case (3, "input"): return path[1] == "devices"
        case (3, "containers"): return ["header", "rows", "physics"].contains(path[2])
        default: return false
        }
    }

    private static func collect(_ table: TOMLTable, path: [String], into items: inout [FileItem]) {
        for (name, node) in table {
            let childPath = path + [name]
            if node.type == .table, let child = node.table, isSection(childPath) {
                items.append(FileItem(path: childPath, value: nil))
                collect(child, path: childPath, into: &items)
            } else {
                items.append(FileItem(path: childPath, value: node))
            }
        }
    }

    private mutating func apply(_ item: FileItem) throws(ConfigurationError) {
        let path = item.path
        guard let node = item.value else {
            // Declaring a container, header or rows section brings it into being, so an empty
            // `[containers.side]` is a container and an empty `[containers.main.header]` is
            // reported as a header without max_height rather than silently ignored.
            if path.count >= 2, path[0] == "containers" {
                try Self.checkContainerName(path[1], key: item.key)
                if container(named: path[1]) == nil { containers.append(ContainerSettings(name: path[1])) }
                let index = containers.firstIndex { $0.name == path[1] }!
                if path.count == 3, path[2] == "header" { containers[index].header = containers[index].header ?? [:] }
                if path.count == 3, path[2] == "rows" { containers[index].rows = containers[index].rows ?? [:] }
            }
            return
        }
        switch (path.count, path[0]) {
        case (1, "daemon"), (1, "physics"), (1, "containers"), (1, "input"):
            throw ConfigurationError(key: item.key, message: "expected a table ([\(item.key)]), got \(node.type)")
        case (1, _):
            throw ConfigurationError(key: item.key, message: "unknown section (daemon, physics, input, containers.NAME)")
        case (2, "containers"):
            throw ConfigurationError(key: item.key, message: "expected a table ([\(item.key)]), got \(node.type)")
        default:
            if path[0] == "containers" { try Self.checkContainerName(path[1], key: item.key) }
            try set(item.key, Self.configValue(node, key: item.key))
        }
    }

    /// Keys are addressed with dots (`containers.NAME.axes`), so a name must not contain one.
    private static func checkContainerName(_ name: String, key: String) throws(ConfigurationError) {
        guard !name.isEmpty, !name.contains(".") else {
            throw ConfigurationError(key: key, message: "a container name must be non-empty and contain no '.', got \"\(name)\"")
        }
    }

    private static func configValue(_ node: TOMLValueConvertible, key: String) throws(ConfigurationError) -> ConfigValue {
        switch node.type {
        case .string: return .string(node.string ?? "")
        case .int: return .integer(node.int ?? 0)
        case .double: return .double(node.double ?? 0)
        case .bool: return .bool(node.bool ?? false)
        case .array:
            var items: [ConfigValue] = []
            for item in node.array ?? TOMLArray() { items.append(try configValue(item, key: key)) }
            return .array(items)
        case .table:
            var fields: [(String, ConfigValue)] = []
            for (name, item) in node.table ?? TOMLTable() { fields.append((name, try configValue(item, key: "\(key).\(name)"))) }
            return .table(fields)
        case .date, .time, .dateTime:
            throw ConfigurationError(key: key, message: "no scrolld key takes a date or time, got \(node.debugDescription)")
        }
    }

    /// The text parsed by TOMLKit, or its syntax error.
    private static func table(_ text: String, file: String) throws(ConfigurationError) -> TOMLTable {
        do {
            return try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            // toml++ says "Error while parsing X: …"; keep its detail, drop the shouting.
            let prefix = "Error while parsing "
            let detail = error.description.hasPrefix(prefix)
                ? " while parsing " + error.description.dropFirst(prefix.count)
                : ": " + error.description
            throw syntaxError(line: error.source.begin.line, column: error.source.begin.column, detail: detail, text: text, file: file)
        } catch {
            throw ConfigurationError(key: "syntax", message: "\(error)", file: file)
        }
    }

    /// A character as a syntax error shows it: quoted when printable, else its code point.
    private static func describe(_ scalar: Unicode.Scalar) -> String {
        guard scalar.properties.generalCategory == .control || scalar.properties.isWhitespace else { return "'\(scalar)'" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// A TOML syntax error, named after the key written where it occurred (or the table it is
    /// in), since that is what the reader will look for.
    private static func syntaxError(line: Int, column: Int, detail: String, text: String, file: String) -> ConfigurationError {
        // Scanning the text through the bad line finds what was begun on it: a key or a
        // header there, else the table it is in.
        var end = text.utf8.endIndex
        var newlines = 0
        for index in text.utf8.indices where text.utf8[index] == UInt8(ascii: "\n") {
            newlines += 1
            if newlines == line { end = index; break }
        }
        let locator = TOMLKeyLocator(Substring(text.utf8[..<end]))
        // A key with an empty part (`""`, or what a stray `"""` starts) is no name to look for.
        func named(_ path: [String]) -> String? { path.isEmpty || path.contains("") ? nil : path.joined(separator: ".") }
        let onLine = locator.entries.last { $0.line == line && named($0.path) != nil }.flatMap { named($0.path) }
        let key = onLine ?? locator.unfinishedKey ?? named(locator.table) ?? "syntax"
        return ConfigurationError(
            key: key,
            message: "syntax error at column \(column)\(detail)",
            line: line,
            file: file
        )
    }

    /// The whole file as UTF-8 text.
    static func readFile(_ path: String) throws(ConfigurationError) -> String {
        func failure(_ reason: String) -> ConfigurationError {
            ConfigurationError(key: path, message: "cannot read the configuration file: \(reason)")
        }
        guard let stream = fopen(path, "rb") else { throw failure(String(cString: strerror(errno))) }
        defer { fclose(stream) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = fread(&chunk, 1, chunk.count, stream)
            bytes.append(contentsOf: chunk[..<count])
            if count < chunk.count {
                // A directory opens but fails here (EISDIR).
                if ferror(stream) != 0 { throw failure(String(cString: strerror(errno))) }
                break
            }
        }
        guard let text = String(validating: bytes, as: UTF8.self) else { throw failure("not valid UTF-8") }
        return text
    }
}
