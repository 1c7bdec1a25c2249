/// One spelling per configuration key (docs/decisions.md, "One spelling per key").
///
/// Every key has one canonical spelling: the one docs/design.md writes in the configuration
/// file, which is snake_case (`deceleration_rate`, `min_height`, `scroll_target`) except the
/// container's two sizes, `containerSize` and `contentSize`, named after the state's fields
/// (§4, §7, §8). One key is written two ways by docs/design.md itself, content insets:
/// `insets` in the file (§8) and `contentInsets` in a `configure` request (§7); both are
/// accepted without a word. The other spellings earlier versions accepted still work, each with
/// a warning that names the key to write instead.
public enum KeySpelling {
    /// A container key's spellings besides its canonical one: (spelling, canonical key,
    /// deprecated). Not deprecated: a spelling docs/design.md uses.
    static let containerSpellings: [(spelling: String, key: String, deprecated: Bool)] = [
        ("contentInsets", "insets", false),
        ("container_size", "containerSize", true),
        ("content_size", "contentSize", true),
        ("content_insets", "insets", true),
        // docs/design.md §22's keys, also in the camelCase a `configure` request writes them in.
        ("directionalLock", "directional_lock", false),
        ("snapType", "snap_type", false),
        ("snapProximity", "snap_proximity", false),
        ("snapStop", "snap_stop", false),
        ("indicatorMinLength", "indicator_min_length", false),
        ("indicatorLingerMs", "indicator_linger_ms", false),
    ]

    static let containerKeys = Dictionary(uniqueKeysWithValues: containerSpellings.map { ($0.spelling, (key: $0.key, deprecated: $0.deprecated)) })

    /// The deprecated spellings of `containers.NAME.*` keys, each with the key it now is.
    public static let deprecatedContainerKeys: [(spelling: String, key: String)] =
        containerSpellings.filter(\.deprecated).map { ($0.spelling, $0.key) }

    /// The dotted `key` in its canonical spelling (`containers.main.container_size` →
    /// `containers.main.containerSize`), and whether the spelling it was written in is
    /// deprecated. A key that is not a configuration key comes back as it is.
    public static func canonical(_ key: String) -> (key: String, deprecated: Bool) {
        let parts = key.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let (canonical, deprecated) = canonical(parts)
        return (canonical.joined(separator: "."), deprecated)
    }

    /// The warning `set` records for a key written in a deprecated spelling
    /// (`containers.main.container_size: deprecated spelling; use containers.main.containerSize`),
    /// nil for any other key. For a `configure` request, `key` is `containers.NAME.KEY`.
    public static func deprecationWarning(for key: String) -> ConfigurationWarning? {
        let (canonical, deprecated) = canonical(key)
        return deprecated ? ConfigurationWarning(deprecated: key, canonical: canonical) : nil
    }

    static func canonical(_ parts: [String]) -> (parts: [String], deprecated: Bool) {
        guard parts.count >= 3, parts[0] == "containers", let spelling = containerKeys[parts[2]] else {
            return (parts, false)
        }
        var result = parts
        result[2] = spelling.key
        return (result, spelling.deprecated)
    }
}

/// Something a configuration accepts but its author should change: a key written in a
/// deprecated spelling. `check-config` prints these; the daemon logs them.
public struct ConfigurationWarning: Hashable, Sendable, CustomStringConvertible {
    /// The key as written.
    public var key: String
    public var message: String
    /// 1-based line in the file the key came from, when known.
    public var line: Int?
    public var file: String?

    /// `FILE:LINE: KEY: message`, as errors are shown, without the parts not known.
    public var description: String {
        ConfigurationError(key: key, message: message, line: line, file: file).description
    }

    /// The key as messages show it (control characters escaped, as errors show keys).
    public var displayKey: String {
        ConfigurationError(key: key, message: message).displayKey
    }
}

extension ConfigurationWarning {
    /// `key`, written in a deprecated spelling of `canonical`.
    init(deprecated key: String, canonical: String) {
        let shown = ConfigurationError(key: canonical, message: "").displayKey
        self.init(key: key, message: "deprecated spelling; use \(shown)")
    }
}
