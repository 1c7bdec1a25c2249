import ScrollModel
import TOML

/// A configuration value (``SettingValue``) as TOML and `--set` give it.
extension SettingValue {
    /// A `--set` value: `true`/`false`, a number, a quoted or bare string, a bracketed list of
    /// those (`[0, 0, 20, 0]`), or a TOML inline table or list as a file writes it
    /// (`{x = 0, y = 0, width = 0.5, height = 1}`, `[[100, 44], [1, 300]]`).
    public init(parsing text: Substring) {
        let trimmed = text.trimmingSpaces
        if trimmed.first == "{" || trimmed.first == "[",
           let table = try? TOMLParser.parse("value = " + trimmed), let value = table["value"],
           let setting = try? Configuration.configValue(value, key: "value") {
            self = setting
            return
        }
        if trimmed == "true" { self = .bool(true); return }
        if trimmed == "false" { self = .bool(false); return }
        if let int = Int(trimmed) { self = .integer(int); return }
        if let double = Double(trimmed), double.isFinite { self = .double(double); return }
        if trimmed.count >= 2, trimmed.first == "\"", trimmed.last == "\"" {
            self = .string(String(trimmed.dropFirst().dropLast()))
            return
        }
        if trimmed.count >= 2, trimmed.first == "[", trimmed.last == "]" {
            let inner = trimmed.dropFirst().dropLast()
            self = .array(inner.isEmpty ? [] : inner.split(separator: ",").map { SettingValue(parsing: $0) })
            return
        }
        self = .string(String(trimmed))
    }

    /// The value as a configuration error message shows it, as TOML writes it, on one line:
    /// control characters in strings and keys are escaped as TOML escapes them, and a long
    /// string, list or table is cut as ``TOMLKey/quoted(_:escapingQuotes:)`` cuts it.
    public var rendered: String {
        switch self {
        case .string(let s): return TOMLKey.quoted(s, escapingQuotes: false)
        case .integer(let i): return String(i)
        case .double(let d): return String(d)
        case .bool(let b): return String(b)
        case .array(let a): return TOMLKey.shown("[" + a.map(\.rendered).joined(separator: ", ") + "]")
        case .object(let t): return TOMLKey.shown("{" + t.map { "\(TOMLKey.shown(TOMLKey.escaped($0.0, escapingQuotes: false))) = \($0.1.rendered)" }.joined(separator: ", ") + "}")
        case .null: return "null"
        }
    }

    /// The value, refused if it holds a `null` anywhere: a request's JSON may carry one, no
    /// configuration key takes one.
    public func configurationValue(key: String) throws(ConfigurationError) -> SettingValue {
        switch self {
        case .null:
            throw ConfigurationError(key: key, message: "null is not a value here")
        case .array(let items):
            for item in items { _ = try item.configurationValue(key: key) }
        case .object(let members):
            for (name, item) in members { _ = try item.configurationValue(key: "\(key).\(name)") }
        case .string, .integer, .double, .bool:
            break
        }
        return self
    }
}

extension Substring {
    var trimmingSpaces: Substring {
        var s = self
        while let c = s.first, c == " " || c == "\t" { s.removeFirst() }
        while let c = s.last, c == " " || c == "\t" { s.removeLast() }
        return s
    }
}
