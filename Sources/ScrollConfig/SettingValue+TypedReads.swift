import ScrollModel

/// Typed reads of a value for a key, each failing with an error that names the key and what it
/// expected.
extension SettingValue {
    func fail(_ key: String, _ expected: String) -> ConfigurationError {
        ConfigurationError(key: key, message: "expected \(expected), got \(typeName) \(rendered)")
    }

    func string(_ key: String) throws(ConfigurationError) -> String {
        guard case .string(let s) = self else { throw fail(key, "a string") }
        return s
    }

    func bool(_ key: String) throws(ConfigurationError) -> Bool {
        guard case .bool(let b) = self else { throw fail(key, "true or false") }
        return b
    }

    /// A number within ``Limits/magnitude`` (docs/design.md, "Limits"): whatever a key means,
    /// no value beyond it is ever used.
    func number(_ key: String) throws(ConfigurationError) -> Double {
        let n = try finiteNumber(key)
        guard Limits.accepts(n) else {
            throw ConfigurationError(key: key, message: "must be between -1e9 and 1e9, got \(rendered)")
        }
        return n
    }

    private func finiteNumber(_ key: String) throws(ConfigurationError) -> Double {
        switch self {
        case .integer(let i): return Double(i)
        case .double(let d) where d.isFinite: return d
        case .double: throw ConfigurationError(key: key, message: "expected a finite number, got \(rendered)")
        default: throw fail(key, "a number")
        }
    }

    /// A number within `range`, the key's own (`Limits`, within ``Limits/magnitude``): a
    /// refusal names that range.
    func number(_ key: String, in range: ClosedRange<Double>) throws(ConfigurationError) -> Double {
        let n = try finiteNumber(key)
        guard range.contains(n) else {
            throw ConfigurationError(key: key, message: "must be between \(Limits.format(range.lowerBound)) and \(Limits.format(range.upperBound)), got \(rendered)")
        }
        return n
    }

    func positive(_ key: String) throws(ConfigurationError) -> Double {
        let n = try number(key)
        guard n > 0 else { throw ConfigurationError(key: key, message: "must be greater than 0, got \(rendered)") }
        return n
    }

    func nonNegative(_ key: String) throws(ConfigurationError) -> Double {
        let n = try number(key)
        guard n >= 0 else { throw ConfigurationError(key: key, message: "must not be negative, got \(rendered)") }
        return n
    }

    func array(_ key: String) throws(ConfigurationError) -> [SettingValue] {
        guard case .array(let a) = self else { throw fail(key, "an array") }
        return a
    }

    func strings(_ key: String) throws(ConfigurationError) -> [String] {
        var result: [String] = []
        for item in try array(key) { result.append(try item.string(key)) }
        return result
    }

    func choice<T: RawRepresentable & CaseIterable>(_ key: String, _ type: T.Type) throws(ConfigurationError) -> T where T.RawValue == String {
        let names = T.allCases.map(\.rawValue)
        guard case .string(let s) = self, let value = T(rawValue: s) else {
            throw fail(key, "one of " + names.joined(separator: ", "))
        }
        return value
    }

    /// `"800x600"`, `[800, 600]` or `{ width = 800, height = 600 }`.
    func size(_ key: String) throws(ConfigurationError) -> Size {
        let numbers: [Double]
        switch self {
        case .string(let s):
            let parts = s.split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]) else { throw fail(key, "WIDTHxHEIGHT") }
            numbers = [w, h]
        case .array(let items):
            numbers = try items.map { (item: SettingValue) throws(ConfigurationError) in try item.number(key, in: 0...Limits.magnitude) }
        case .object(let fields):
            for field in fields where !Self.sizeKeys.contains(field.0) {
                throw Self.unknownKey("\(key).\(field.0)", of: "size")
            }
            numbers = try Self.sizeKeys.map { (name: String) throws(ConfigurationError) in
                guard let field = fields.first(where: { $0.0 == name }) else { throw fail(key, "a table with width and height") }
                return try field.1.number("\(key).\(name)", in: 0...Limits.magnitude)
            }
        default:
            throw fail(key, "WIDTHxHEIGHT")
        }
        guard numbers.count == 2, numbers.allSatisfy({ $0 >= 0 && Limits.accepts($0) }) else {
            throw ConfigurationError(key: key, message: "expected two numbers from 0 to 1e9 (width, height), got \(rendered)")
        }
        return Size(width: numbers[0], height: numbers[1])
    }

    /// `"TOP,LEADING,BOTTOM,TRAILING"`, an array of four, or a table with those names.
    /// `touch_frame`: `{x, y, width, height}` in a touchscreen's normalized coordinates
    /// (docs/design.md §25); an empty table (`{}`) removes the frame.
    func touchFrame(_ key: String) throws(ConfigurationError) -> Rect? {
        guard case .object(let fields) = self else { throw fail(key, "a table with x, y, width and height") }
        if fields.isEmpty { return nil }
        for field in fields where !Self.touchFrameKeys.contains(field.0) {
            throw Self.unknownKey("\(key).\(field.0)", of: "touch_frame")
        }
        let numbers = try Self.touchFrameKeys.map { (name: String) throws(ConfigurationError) -> Double in
            guard let field = fields.last(where: { $0.0 == name }) else { throw fail(key, "a table with x, y, width and height") }
            return try field.1.touchFrameNumber(name, "\(key).\(name)")
        }
        return Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
    }

    /// `touch_frame`'s key `name`: an origin within ``Limits/touchFrameOrigin``, a length
    /// within ``Limits/touchFrameLength``.
    func touchFrameNumber(_ name: String, _ key: String) throws(ConfigurationError) -> Double {
        try number(key, in: name.count == 1 ? Limits.touchFrameOrigin : Limits.touchFrameLength)
    }

    func insets(_ key: String) throws(ConfigurationError) -> EdgeInsets {
        let names = Self.insetKeys
        let numbers: [Double]
        switch self {
        case .string(let s):
            let parts = s.split(separator: ",", omittingEmptySubsequences: false).map { Double($0.trimmingSpaces) }
            guard parts.count == 4, parts.allSatisfy({ $0 != nil }) else { throw fail(key, "TOP,LEADING,BOTTOM,TRAILING") }
            numbers = parts.map { $0! }
        case .array(let items):
            numbers = try items.map { (item: SettingValue) throws(ConfigurationError) in try item.number(key, in: 0...Limits.magnitude) }
        case .object(let fields):
            for field in fields where !names.contains(field.0) {
                throw Self.unknownKey("\(key).\(field.0)", of: "insets")
            }
            numbers = try names.map { (name: String) throws(ConfigurationError) in
                try fields.first(where: { $0.0 == name })?.1.number("\(key).\(name)") ?? 0
            }
        default:
            throw fail(key, "TOP,LEADING,BOTTOM,TRAILING")
        }
        guard numbers.count == 4, numbers.allSatisfy(Limits.accepts) else { throw fail(key, "four numbers between -1e9 and 1e9") }
        return EdgeInsets(top: numbers[0], leading: numbers[1], bottom: numbers[2], trailing: numbers[3])
    }

    func axes(_ key: String) throws(ConfigurationError) -> Axis.Set {
        switch self {
        case .string("vertical"): return .vertical
        case .string("horizontal"): return .horizontal
        case .string("both"): return .both
        default: throw fail(key, "vertical, horizontal or both")
        }
    }

    /// `top`, `bottom`, or their synonyms for a horizontal container, `leading` and `trailing`.
    func anchor(_ key: String) throws(ConfigurationError) -> DefaultScrollAnchor {
        switch self {
        case .string("top"), .string("leading"): return .top
        case .string("bottom"), .string("trailing"): return .bottom
        default: throw fail(key, "top, bottom, leading or trailing")
        }
    }
}

/// The tables of a container's keys that take one (`containerSize = { width = 800, height = 600 }`):
/// their keys, and the error for any other, whether in the table or given alone
/// (`--set containers.main.touch_frame.depth=1`).
extension SettingValue {
    static let sizeKeys = ["width", "height"]
    static let insetKeys = ["top", "leading", "bottom", "trailing"]
    static let touchFrameKeys = ["x", "y", "width", "height"]

    /// `key`, which is not a key of `table` (`insets`, `touch_frame`, or either size).
    static func unknownKey(_ key: String, of table: String) -> ConfigurationError {
        switch table {
        case "insets": ConfigurationError(key: key, message: "unknown inset (\(insetKeys.joined(separator: ", ")))")
        case "touch_frame": ConfigurationError(key: key, message: "unknown touch_frame key (\(touchFrameKeys.joined(separator: ", ")))")
        default: ConfigurationError(key: key, message: "unknown size key (\(sizeKeys.joined(separator: ", ")))")
        }
    }
}
