#if canImport(Glibc)
import Glibc
#endif
import ScrollModel
import TOML

/// Loading a TOML configuration file (docs/design.md §8) onto the built-in defaults.
///
/// Every value goes through `set` under its dotted key, so a file, `--set` and the defaults
/// share one set of rules. Keys are applied in source order, so when a file has several
/// mistakes the first one reported is the first one written. After the last key every
/// container is resolved, so problems between keys (header `min_height` above `max_height`,
/// rows without a height) fail at load time too, not when a client first asks.
extension Configuration {
    /// Reads and parses the file at `path`; errors carry `path` as their `file`.
    public static func load(contentsOf path: String) throws(ConfigurationError) -> Configuration {
        try parse(text(of: path), file: path)
    }

    /// Parses TOML `text` onto the built-in defaults. `file` names the source in errors.
    ///
    /// A file only changes what it mentions: a file that defines `[containers.side]` keeps the
    /// built-in `main` next to it.
    public static func parse(_ text: String, file: String) throws(ConfigurationError) -> Configuration {
        let root: TOMLTable
        do {
            root = try TOMLParser.parse(text)
        } catch {
            throw syntaxError(error, file: file)
        }
        var items: [FileItem] = []
        collect(root, path: [], into: &items)
        var lines = KeyLines()
        lines.record(root, path: [])
        // Stable, so what one line holds (an inline table's keys) keeps its written order.
        let ordered = items.enumerated().sorted { a, b in
            (a.element.line, a.offset) < (b.element.line, b.offset)
        }.map(\.element)

        do throws(ConfigurationError) {
            var configuration = try build(ordered, lines: lines)
            for index in configuration.deprecations.indices { configuration.deprecations[index].file = file }
            return configuration
        } catch {
            var located = error
            located.file = file
            throw located
        }
    }

    /// Applies the items in order onto the defaults, then resolves everything.
    private static func build(_ items: [FileItem], lines: KeyLines) throws(ConfigurationError) -> Configuration {
        var configuration = Configuration()
        for item in items {
            let known = configuration.deprecations.count
            do {
                try configuration.apply(item)
                // A key in a deprecated spelling is reported at its line, as an error would be.
                for index in configuration.deprecations.indices.dropFirst(known) {
                    configuration.deprecations[index].line = lines.exactLine(of: configuration.deprecations[index].key) ?? item.line
                }
            } catch {
                // A rejected sub-key of an inline table (`containerSize.width`) has a line of
                // its own; anything else is on the item's line.
                var located = error
                located.line = lines.exactLine(of: error.key) ?? item.line
                throw located
            }
        }
        do {
            _ = try configuration.resolvePhysics()
            for container in configuration.containers { _ = try configuration.resolve(container: container.name) }
            try configuration.checkNesting()
        } catch {
            var located = error
            located.line = lines.line(of: error.key)
            throw located
        }
        return configuration
    }

    /// One table the file opens or one value it assigns, with its dotted key and line.
    private struct FileItem {
        var path: [String]
        /// nil: a section (`[containers.side]`), which exists even when empty.
        var value: TOMLValue?
        var line: Int

        var key: String { path.joined(separator: ".") }
    }

    /// Tables that are sections are walked into, key by key; any other table is a value of its
    /// key (`containerSize = { width = 800, height = 600 }`) and reaches `set` as `.table`.
    private static func isSection(_ path: [String]) -> Bool {
        switch (path.count, path.first) {
        case (1, "daemon"), (1, "web"), (1, "physics"), (1, "containers"), (2, "containers"), (1, "input"): return true
        case (2, "input"): return path[1] == "devices"
        case (3, "input"): return path[1] == "devices"
        case (3, "containers"): return ["header", "rows", "physics", "refresh"].contains(path[2])
        default: return false
        }
    }

    private static func collect(_ table: TOMLTable, path: [String], into items: inout [FileItem]) {
        for entry in table {
            let childPath = path + [entry.key]
            if case .table(let child) = entry.value, isSection(childPath) {
                items.append(FileItem(path: childPath, value: nil, line: entry.line))
                collect(child, path: childPath, into: &items)
            } else {
                items.append(FileItem(path: childPath, value: entry.value, line: entry.line))
            }
        }
    }

    private mutating func apply(_ item: FileItem) throws(ConfigurationError) {
        let path = item.path
        guard let value = item.value else {
            // Declaring a container, header or rows section brings it into being, so an empty
            // `[containers.side]` is a container and an empty `[containers.main.header]` is
            // reported as a header without max_height rather than silently ignored.
            if path.count >= 2, path[0] == "containers" {
                try Self.checkContainerName(path[1], key: item.key)
                let index = try self.index(ofContainer: path[1], creatingAt: item.key)
                if path.count == 3, path[2] == "header" { containers[index].header = containers[index].header ?? [:] }
                if path.count == 3, path[2] == "rows" { containers[index].rows = containers[index].rows ?? [:] }
            }
            return
        }
        switch (path.count, path[0]) {
        case (1, "daemon"), (1, "web"), (1, "physics"), (1, "containers"), (1, "input"):
            throw ConfigurationError(key: item.key, message: "expected a table ([\(TOMLKey.written(path))]), got \(Self.written(value))")
        case (1, _):
            throw ConfigurationError(key: item.key, message: "unknown section (daemon, web, physics, input, containers.NAME)")
        case (2, "containers"):
            throw ConfigurationError(key: item.key, message: "expected a table ([\(TOMLKey.written(path))]), got \(Self.written(value))")
        default:
            if path[0] == "containers" { try Self.checkContainerName(path[1], key: item.key) }
            try set(item.key, Self.configValue(value, key: item.key))
        }
    }

    /// Keys are addressed with dots (`containers.NAME.axes`), so a name must not contain one.
    private static func checkContainerName(_ name: String, key: String) throws(ConfigurationError) {
        guard !name.isEmpty, !name.contains(".") else {
            throw ConfigurationError(key: key, message: "a container name must be non-empty and contain no '.', got \(TOMLKey.quoted(name))")
        }
        if let problem = Limits.nameTooLong(name) {
            throw ConfigurationError(key: key, message: problem)
        }
    }

    /// A value for a message: its TOML kind and how it is written.
    private static func written(_ value: TOMLValue) -> String {
        "\(value.kindWithArticle) \(value)"
    }

    /// A TOML value as a setting; no key takes a date or time.
    static func configValue(_ value: TOMLValue, key: String) throws(ConfigurationError) -> SettingValue {
        switch value {
        case .string(let s): return .string(s)
        case .integer(let i): return .integer(Int(i))
        case .float(let d): return .double(d)
        case .boolean(let b): return .bool(b)
        case .array(let items):
            var converted: [SettingValue] = []
            for item in items { converted.append(try configValue(item, key: key)) }
            return .array(converted)
        case .table(let table):
            var fields: [(String, SettingValue)] = []
            for entry in table { fields.append((entry.key, try configValue(entry.value, key: "\(key).\(entry.key)"))) }
            return .object(fields)
        case .offsetDateTime, .localDateTime, .localDate, .localTime:
            throw ConfigurationError(key: key, message: "no scrolld key takes a date or time, got \(written(value))")
        }
    }

    /// A TOML syntax error, named after the key being read where it occurred (or the table it
    /// is in), since that is what the reader will look for.
    private static func syntaxError(_ error: TOMLError, file: String) -> ConfigurationError {
        // A key with an empty part (`""`, or what a stray `"""` starts) is no name to look for.
        func named(_ path: [String]?) -> String? {
            guard let path, !path.isEmpty, !path.contains("") else { return nil }
            return path.joined(separator: ".")
        }
        return ConfigurationError(
            key: named(error.key) ?? named(error.table) ?? "syntax",
            message: "syntax error at column \(error.column): \(error.message)",
            line: error.line,
            file: file
        )
    }

    /// The whole file as UTF-8 text: a regular file or a character device (`/dev/null` for no
    /// configuration), read without blocking, and of at most ``Limits/configurationFileBytes``.
    /// The watcher reloads whatever the path comes to name, on the daemon's loop: a FIFO would
    /// block it for good, `/dev/zero` never end.
    public static func text(of path: String) throws(ConfigurationError) -> String {
        func failure(_ reason: String) -> ConfigurationError {
            ConfigurationError(key: path, message: "cannot read the configuration file: \(reason)")
        }
        // Non-blocking: opening a FIFO waits for a writer otherwise.
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard descriptor >= 0 else { throw failure(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw failure(String(cString: strerror(errno))) }
        switch status.st_mode & S_IFMT {
        case S_IFREG, S_IFCHR: break
        case S_IFDIR: throw failure(String(cString: strerror(EISDIR)))
        default: throw failure("not a regular file")
        }
        let limit = Limits.configurationFileBytes
        guard status.st_size <= limit else { throw failure("larger than \(limit) bytes (\(status.st_size))") }
        // Room for one byte more than it has: a file that grows while it is read still ends,
        // at one byte past the limit.
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress! + count, $0.count - count) }
            if read < 0, errno == EINTR { continue }
            guard read >= 0 else { throw failure(String(cString: strerror(errno))) }
            if read == 0 { break }
            count += read
            if count == bytes.count, count <= limit {
                bytes.append(contentsOf: repeatElement(0, count: Swift.min(limit + 1, 2 * count) - count))
            }
        }
        guard count <= limit else { throw failure("larger than \(limit) bytes") }
        guard let text = String(validating: bytes[..<count], as: UTF8.self) else { throw failure("not valid UTF-8") }
        return text
    }
}
