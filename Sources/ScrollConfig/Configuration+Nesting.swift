extension Configuration {
    /// Checks the containers' `parent` keys (DESIGN §14): each names a container of this
    /// configuration, and following parents never comes back to where it started. `only`: check
    /// the named containers' own parents (a `configure`, which may leave another container's
    /// parent dangling after a `remove`), but cycles through them all the same; nil: every one.
    public func checkNesting(only names: [String]? = nil) throws(ConfigurationError) {
        for settings in containers where names?.contains(settings.name) ?? true {
            guard let parent = settings.parent else { continue }
            let key = "containers.\(settings.name).parent"
            guard container(named: parent) != nil else {
                throw ConfigurationError(key: key, message: "no container \(Self.quoted(parent)) to nest in (parent names another container)")
            }
            var chain = [settings.name]
            var next: String? = parent
            while let current = next, let found = container(named: current) {
                guard !chain.contains(current) else {
                    let cycle = (chain + [current]).joined(separator: " → ")
                    throw ConfigurationError(key: key, message: "nesting would make a cycle (\(cycle))")
                }
                chain.append(current)
                next = found.parent
            }
        }
    }

    static func quoted(_ name: String) -> String {
        "\"\(name)\""
    }
}
