import ScrollModel
import TOML

extension Configuration {
    /// Checks the containers' `parent` keys (docs/design.md §14): each names a container of
    /// this configuration, following parents never comes back to where it started, and no chain
    /// holds more than ``Limits/chainDepth`` containers. `only`: check the named containers' own
    /// parents (a `configure`, which may leave another container's parent dangling after a
    /// `remove`), but cycles and depth through them all the same; nil: every one.
    ///
    /// Linear in the number of containers: each container's depth is found once, by name
    /// through a dictionary, so a configure in a deep chain costs no more than one in a flat one.
    /// `requiringParents` false: a parent that is not there is no error (a restart takes
    /// containers back one by one, and a removed parent stays named).
    public func checkNesting(only names: [String]? = nil, requiringParents: Bool = true) throws(ConfigurationError) {
        var position: [String: Int] = [:]
        for (index, settings) in containers.enumerated() { position[settings.name] = index }
        let checked = names.map { Set($0) }
        for settings in containers where requiringParents && checked?.contains(settings.name) ?? true {
            guard let parent = settings.parent, position[parent] == nil else { continue }
            throw ConfigurationError(
                key: "containers.\(settings.name).parent",
                message: "no container \(Self.quoted(parent)) to nest in (parent names another container)"
            )
        }
        // The named containers first, so that a cycle is reported at the key just set.
        let first = containers.indices.filter { checked?.contains(containers[$0].name) ?? true }
        var depth = [Int](repeating: 0, count: containers.count)
        for start in first + containers.indices where depth[start] == 0 {
            // Up from `start` until a container whose depth is known, a top-level one, or one
            // whose parent is gone (top-level for routing).
            var chain: [Int] = []
            var onChain = Set<Int>()
            var current: Int? = start
            var above = 0
            while let index = current {
                if depth[index] > 0 {
                    above = depth[index]
                    break
                }
                guard onChain.insert(index).inserted else {
                    let names = (chain.drop { $0 != index } + [index]).map { TOMLKey.written([containers[$0].name]) }
                    throw ConfigurationError(
                        key: "containers.\(containers[start].name).parent",
                        message: "nesting would make a cycle (\(names.joined(separator: " → ")))"
                    )
                }
                chain.append(index)
                current = containers[index].parent.flatMap { position[$0] }
            }
            for (offset, index) in chain.reversed().enumerated() { depth[index] = above + offset + 1 }
            if depth[start] > Limits.chainDepth {
                // A configure is refused at the key it set, wherever the chain ends.
                throw ConfigurationError(
                    key: "containers.\(names?.first ?? containers[start].name).parent",
                    message: "nesting deeper than \(Limits.chainDepth) containers (a chain of \(depth[start]))"
                )
            }
        }
    }

    /// A name in a message: quoted, its control characters escaped, so that a message is
    /// always one line whatever a client named.
    public static func quoted(_ name: String) -> String {
        TOMLKey.quoted(name)
    }

    /// A name as a list shows it (`check-config`'s "containers:" line): as it is, or, when it
    /// holds a control character or a line separator (which a file and a request may put in a
    /// name), quoted with TOML's escapes, so that each line printed is printable text.
    public static func printable(_ name: String) -> String {
        name.unicodeScalars.contains(where: TOMLKey.needsEscape) ? TOMLKey.quoted(name) : name
    }

    /// A text from outside (a header, a path) as a message shows it: its first `limit`
    /// characters and "…" when it is longer, quoted as ``printable(_:)`` quotes.
    public static func excerpt(_ text: String, limit: Int = TOMLKey.shownCharacters) -> String {
        let (head, isCut) = TOMLKey.cut(text, limit: limit)
        return printable(isCut ? head + "…" : text)
    }
}
