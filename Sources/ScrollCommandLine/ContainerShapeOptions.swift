import ArgumentParser
import ScrollProtocol

/// The options that give a container its shape, the same on both command lines: `scrolld
/// replay` and `run` override the configuration with them, `scrollctl configure` sends them.
/// Each is the configuration key of the same name (docs/design.md §8), and a malformed one is a
/// usage error before anything runs.
package struct ContainerShapeOptions: ParsableArguments {
    @Option(name: .customLong("container-size"), help: ArgumentHelp("The container's size.", valueName: "WxH"))
    var containerSize: SizeArgument?

    @Option(name: .customLong("content-size"), help: ArgumentHelp("The content's size.", valueName: "WxH"))
    var contentSize: SizeArgument?

    @Option(help: ArgumentHelp("Content insets.", valueName: "TOP,LEADING,BOTTOM,TRAILING"))
    var insets: InsetsArgument?

    @Option(help: ArgumentHelp("Scrolled axes: vertical, horizontal or both.", valueName: "AXES"))
    var axes: String?

    @Option(help: ArgumentHelp("A collapsing header's collapsed and expanded heights.", valueName: "MIN:MAX"))
    var header: HeaderArgument?

    @Option(help: ArgumentHelp("Rows of a list.", valueName: "COUNTxHEIGHT"))
    var rows: RowsArgument?

    package init() {}

    /// The options given, as `configure` settings: the container's keys and their values.
    package var settings: [ConfigureSetting] {
        let values: [(String, ProtocolValue?)] = [
            ("containerSize", containerSize?.value),
            ("contentSize", contentSize?.value),
            ("insets", insets?.value),
            ("axes", axes.map { .string($0) }),
            ("header", header?.value),
            ("rows", rows?.value),
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

/// `A<separator>B`, two numbers as the user wrote them.
private func numberPair(_ argument: String, _ separator: Character) -> (ProtocolValue, ProtocolValue)? {
    let parts = argument.split(separator: separator, omittingEmptySubsequences: false)
    guard parts.count == 2, let first = protocolNumber(parts[0]), let second = protocolNumber(parts[1]) else { return nil }
    return (first, second)
}

/// `WxH`, as `{"width":W,"height":H}`.
struct SizeArgument: ExpressibleByArgument {
    var value: ProtocolValue

    init?(argument: String) {
        guard let (width, height) = numberPair(argument, "x") else { return nil }
        value = .object([("width", width), ("height", height)])
    }
}

/// `TOP,LEADING,BOTTOM,TRAILING`, as `{"top":…,"leading":…,"bottom":…,"trailing":…}`.
struct InsetsArgument: ExpressibleByArgument {
    var value: ProtocolValue

    init?(argument: String) {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.compactMap { protocolNumber($0) }
        guard parts.count == 4, numbers.count == 4 else { return nil }
        value = .object(zip(["top", "leading", "bottom", "trailing"], numbers).map { ($0, $1) })
    }
}

/// `MIN:MAX`: a collapsing header's heights.
struct HeaderArgument: ExpressibleByArgument {
    var value: ProtocolValue

    init?(argument: String) {
        guard let (min, max) = numberPair(argument, ":") else { return nil }
        value = .object([("min_height", min), ("max_height", max)])
    }
}

/// `COUNTxHEIGHT`: rows of one height; the count a whole number.
struct RowsArgument: ExpressibleByArgument {
    var value: ProtocolValue

    init?(argument: String) {
        guard let (count, height) = numberPair(argument, "x"), case .integer = count else { return nil }
        value = .object([("count", count), ("height", height)])
    }
}
