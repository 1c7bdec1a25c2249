import ArgumentParser
import ScrollProtocol

/// The options that give a container its shape, the same on both command lines: `scrolld
/// replay` and `run` override the configuration with them, `scrollctl configure` sends them.
/// Each is the configuration key of the same name (docs/design.md §8), and a malformed one is a
/// usage error before anything runs.
package struct ContainerShapeOptions: ParsableArguments {
    @Option(
        name: .customLong("container-size"), parsing: .unconditional, help: ArgumentHelp("The container's size.", valueName: "WxH"),
        transform: { try numbers($0, separatedBy: "x", as: ["width", "height"]) })
    var containerSize: ProtocolValue?

    @Option(
        name: .customLong("content-size"), parsing: .unconditional, help: ArgumentHelp("The content's size.", valueName: "WxH"),
        transform: { try numbers($0, separatedBy: "x", as: ["width", "height"]) })
    var contentSize: ProtocolValue?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Content insets.", valueName: "TOP,LEADING,BOTTOM,TRAILING"),
        transform: { try numbers($0, separatedBy: ",", as: ["top", "leading", "bottom", "trailing"]) })
    var insets: ProtocolValue?

    @Option(parsing: .unconditional, help: ArgumentHelp("Scrolled axes: vertical, horizontal or both.", valueName: "AXES"))
    var axes: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("A collapsing header's collapsed and expanded heights.", valueName: "MIN:MAX"),
        transform: { try numbers($0, separatedBy: ":", as: ["min_height", "max_height"]) })
    var header: ProtocolValue?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp("Rows of a list.", valueName: "COUNTxHEIGHT"),
        transform: { try numbers($0, separatedBy: "x", as: ["count", "height"], wholeNumbers: ["count"]) })
    var rows: ProtocolValue?

    package init() {}

    /// The options given, as `configure` settings: the container's keys and their values.
    package var settings: [ConfigureSetting] {
        let values: [(String, ProtocolValue?)] = [
            ("containerSize", containerSize),
            ("contentSize", contentSize),
            ("insets", insets),
            ("axes", axes.map { .string($0) }),
            ("header", header),
            ("rows", rows),
        ]
        return values.compactMap { key, value in value.map { ConfigureSetting(key: key, value: $0) } }
    }
}

/// A number as the user wrote it: an integer stays an integer (the daemon checks
/// configuration values as TOML would, where a row count must be one).
package func protocolNumber<S: StringProtocol>(_ text: S) -> ProtocolValue? {
    if let int = Int(text) { return .integer(int) }
    if let double = Double(text), double.isFinite { return .double(double) }
    return nil
}

/// One number per key between `separator`s, as the object of those keys: `400x300` as
/// `{"width":400,"height":300}`. The keys of `wholeNumbers` take an integer only.
func numbers(
    _ argument: String, separatedBy separator: Character, as keys: [String], wholeNumbers: Set<String> = []
) throws -> ProtocolValue {
    let parts = argument.split(separator: separator, omittingEmptySubsequences: false)
    guard parts.count == keys.count else {
        throw ValidationError("expected \(keys.count) numbers separated by '\(separator)'")
    }
    var members: [(String, ProtocolValue)] = []
    for (key, part) in zip(keys, parts) {
        guard let number = protocolNumber(part), !wholeNumbers.contains(key) || Int(part) != nil else {
            let kind = Double(part)?.isFinite == false ? "a finite number" : wholeNumbers.contains(key) ? "a whole number" : "a number"
            throw ValidationError("\(key) must be \(kind), got '\(part)'")
        }
        members.append((key, number))
    }
    return .object(members)
}
