/// A KDE configuration file (KConfig's INI dialect) as KDE writes `kcminputrc` and
/// `kdeglobals`: nested groups `[Libinput][1267][12410][ELAN Touchpad]`, `key=value` entries,
/// `#` comments, entry options such as `key[$e]`, and KConfig's backslash escapes. Only what
/// scrolld reads is kept; anything it cannot read is skipped, as KDE itself does.
public struct KConfigFile: Sendable, Equatable {
    /// Each group's path (`["Libinput", "1267", "12410", "ELAN Touchpad"]`) and its entries,
    /// in file order; a group met twice collects both.
    public private(set) var groups: [[String]: [String: String]] = [:]

    /// Parses the file's text.
    public init(parsing text: String) {
        var group: [String] = []
        for line in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = Self.trimmed(line)
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("[") {
                group = Self.groupPath(line)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            var key = Self.trimmed(line[..<equals])
            // `key[$e]`, `key[de]`: an option or a locale; scrolld reads the plain key.
            if let bracket = key.firstIndex(of: "[") {
                guard key[bracket...].hasPrefix("[$") else { continue }
                key = String(key[..<bracket])
            }
            groups[group, default: [:]][key] = Self.unescaped(Self.trimmed(line[line.index(after: equals)...]))
        }
    }

    /// The value of `key` in the group at `path`.
    public func value(_ key: String, in path: [String]) -> String? {
        groups[path]?[key]
    }

    /// `true`/`false` as KConfig reads a boolean (also `1`, `on`, `yes`).
    public static func bool(_ text: String?) -> Bool? {
        switch text?.lowercased() {
        case "true", "1", "on", "yes": return true
        case "false", "0", "off", "no": return false
        default: return nil
        }
    }

    /// A decimal number as KDE writes it (`0.5`, `1`), finite.
    public static func number(_ text: String?) -> Double? {
        guard let text, let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// `[A][B][C]` → `["A", "B", "C"]`; a `]` inside a name is escaped by KConfig as `\x5d`.
    static func groupPath(_ line: String) -> [String] {
        var path: [String] = []
        var rest = Substring(line)
        while rest.hasPrefix("["), let close = rest.firstIndex(of: "]") {
            path.append(unescaped(String(rest[rest.index(after: rest.startIndex)..<close])))
            rest = rest[rest.index(after: close)...]
        }
        return path
    }

    /// KConfig's escapes: `\\`, `\s`, `\t`, `\n`, `\r`, `\xNN`.
    static func unescaped(_ text: String) -> String {
        guard text.contains("\\") else { return text }
        var bytes: [UInt8] = []
        var input = Array(text.utf8)[...]
        while let byte = input.popFirst() {
            guard byte == UInt8(ascii: "\\"), let next = input.popFirst() else {
                bytes.append(byte)
                continue
            }
            switch next {
            case UInt8(ascii: "s"): bytes.append(UInt8(ascii: " "))
            case UInt8(ascii: "t"): bytes.append(UInt8(ascii: "\t"))
            case UInt8(ascii: "n"): bytes.append(UInt8(ascii: "\n"))
            case UInt8(ascii: "r"): bytes.append(UInt8(ascii: "\r"))
            case UInt8(ascii: "x") where input.count >= 2:
                let hex = String(decoding: input.prefix(2), as: UTF8.self)
                if let value = UInt8(hex, radix: 16) {
                    bytes.append(value)
                    input = input.dropFirst(2)
                } else {
                    bytes.append(next)
                }
            default: bytes.append(next)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    static func trimmed<S: StringProtocol>(_ text: S) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(text[first...last])
    }
}
