import ScrollConfig
import ScrollModel
import ScrollProtocol

extension Session {
    /// The settings that define the container `name` (what a ``Command/restore(_:at:)`` takes
    /// back): its `containers.NAME.*` keys, every one written out; none for no such container.
    public func settings(ofContainer name: String) -> [ConfigureSetting] {
        configuration.container(named: name)?.assignments.map { ConfigureSetting(key: $0.key, value: $0.value) } ?? []
    }

    /// The configuration with `stored` defined as it was, and its resolved settings; refused
    /// by the limits a `configure` meets. Rows are taken back as edits can leave them.
    private func configuration(restoring stored: RestoredContainer) throws(ConfigurationError) -> (Configuration, ContainerConfiguration) {
        guard !stored.name.utf8.contains(UInt8(ascii: ".")) else {
            throw ConfigurationError(key: "containers", message: "a container name cannot contain \".\"")
        }
        if let problem = Limits.nameTooLong(stored.name) {
            throw ConfigurationError(key: "containers", message: problem)
        }
        guard otherSpelling(of: stored.name) == nil else {
            throw ConfigurationError(key: "containers", message: "another Unicode spelling of an existing container's name")
        }
        guard index(of: stored.name) != nil || engine.slots.count < Limits.containers else {
            throw ConfigurationError(key: "containers", message: "too many containers: the daemon holds at most \(Limits.containers)")
        }
        var updated = configuration
        updated.defineContainer(stored.name)
        for setting in stored.settings {
            try updated.set("containers.\(stored.name).\(setting.key)", try setting.value.configurationValue(key: setting.key))
        }
        // What edits left is taken back as they left it (sticky rows past the end ignored).
        try updated.takeBackEditedRows(ofContainer: stored.name)
        let resolved = try updated.resolve(container: stored.name)
        try updated.checkNesting(only: [stored.name], requiringParents: false)
        return (updated, resolved)
    }

    /// Takes back containers a previous process of the same session had (docs/design.md §16): each
    /// is created (or, when the configuration file defines it, updated) with its stored settings,
    /// brought to rest at its last published offset (clamped to its resting range, as a
    /// `scrollTo` without animation is), with a refresh that was running and an `enterAlways`
    /// header's height as they were, and published with the `seq` after its stored one; then
    /// pauses and the focus are put back. What was taken back is recorded as one `restore`
    /// request of client 0 (docs/design.md §17), which a replay hands to this same function: the
    /// `seq`s go on in the replay exactly as they did live. Returns the containers that could
    /// not be taken back, with the reason.
    @inline(never)  // a restart's, once: input's way through `apply` stays short
    mutating func restore(_ restoration: Restoration, at time: Timestamp, into published: inout Publications) {
        let time = Swift.max(time, engine.now)
        advance(to: time, into: &published)
        var refused: [(name: String, problem: String)] = []
        var restored: [(index: Int, container: RestoredContainer)] = []
        for stored in restoration.containers {
            let updated: Configuration
            let resolved: ContainerConfiguration
            do throws(ConfigurationError) {
                (updated, resolved) = try configuration(restoring: stored)
            } catch {
                refused.append((stored.name, error.description))
                continue
            }
            configuration = updated
            let index: Int
            if let existing = self.index(of: stored.name) {
                index = existing
                let now = engine.now
                _ = engine.update(container: index, at: now) { $0.configure(resolved, at: now) }
            } else {
                index = engine.add(ScrollContainer(name: stored.name, configuration: resolved, at: engine.now))
            }
            restored.append((index, stored))
        }
        for (index, stored) in restored {
            engine.continueNumbering(container: index, after: stored.seq)
            if stored.paused { engine.setPaused(true, container: index) }
            // An offset no state could have had (a damaged store) leaves that axis where it is.
            // Rows reach past a request's 10⁹ px; a state's offset stays within 10¹⁷.
            func possible(_ offset: Double) -> Double? {
                offset.isFinite && abs(offset) <= Limits.stateMagnitude ? offset : nil
            }
            let target = AxisValues(x: possible(stored.offset.x), y: possible(stored.offset.y))
            update(container: index, at: engine.now, into: &published) {
                // A refresh first: its `lo − r` is then the top of the range the offset is
                // clamped to, so a container held there comes back there (docs/design.md §21).
                if stored.refreshing { $0.beginRefresh(at: $1) }
                $0.scroll(to: target, animation: .none, at: $1)
                if let height = stored.headerHeight, Limits.accepts(height) { $0.restoreHeader(height: height) }
                // At rest where it was, as if it had never moved: no indicators, no hide to come.
                $0.hideIndicators()
            }
        }
        var focused: String?
        if let focus = restoration.focus, let index = self.index(of: focus) {
            engine.setFocus(index)
            focused = focus
        }
        recorder?.recordRestore(Restoration(containers: restored.map(\.container), focus: focused), at: engine.now)
        if !refused.isEmpty { published.refusals = refused }
    }

}
