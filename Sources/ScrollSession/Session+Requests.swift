import ScrollConfig
import ScrollModel
import ScrollProtocol

extension Session {
    /// Applies a request that changes state (`configure`, `scrollTo`, `scrollBy`, `pause`,
    /// `resume`, `remove`, `focus`, `beginRefresh`, `endRefresh`) from connection `client` at `time` (or at `now`, if that is later), publishing
    /// what it changes and recording it. A request that fails changes nothing and is not
    /// recorded. Other operations are the daemon's business (they read, or concern the
    /// connection) and are refused here.
    @inline(never)  // a request is rare: input's way through `apply` stays short
    mutating func perform(_ operation: Operation, client: Int, at time: Timestamp, into published: inout Publications) throws(ProtocolError) {
        let time = Swift.max(time, engine.now)
        switch operation {
        case let .configure(name, settings, animation, _):
            try configure(name, settings, animation: animation, at: time, into: &published)
        case let .scrollTo(name, position, animation):
            let index = try container(name)
            let container = engine.slots[index].container
            do throws(ScrollPositionError) {
                // Checked on a copy first: a request that cannot apply changes nothing.
                var probe = container
                guard try probe.scroll(to: position, animation: animation, at: time) else { return }
            } catch {
                throw ProtocolError(.invalidValue, error.description)
            }
            update(container: index, at: time, into: &published) { _ = try? $0.scroll(to: position, animation: animation, at: $1) }
        case let .scrollBy(name, delta, animation):
            let index = try container(name)
            update(container: index, at: time, into: &published) { $0.scroll(by: delta, animation: animation, at: $1) }
        case .pause(let name):
            try setPaused(true, container: container(name), at: time, into: &published)
        case .resume(let name):
            try setPaused(false, container: container(name), at: time, into: &published)
        case .remove(let name):
            let index = try container(name)
            guard !fileContainers.contains(name) else {
                throw ProtocolError(.invalidValue, "invalid \"container\": \(ProtocolError.quoted(name)) comes from the configuration (its file or the built-in main); only containers created by a request can be removed")
            }
            advance(to: time, into: &published)
            engine.remove(container: index)
            configuration.removeContainer(name)
        case .flashIndicators(let name):
            // The indicators show (docs/design.md §22): one state says so, and the linger's
            // timer hides them.
            let index = try container(name)
            update(container: index, at: time, into: &published) { $0.flashIndicators(at: $1) }
        case .focus(let name):
            // The daemon's focus, not the client's: the last one wins (docs/design.md §14). It
            // changes where input goes, not any state, so nothing is published.
            let index = try name.map { (name: String) throws(ProtocolError) in try container(name) }
            advance(to: time, into: &published)
            engine.setFocus(index)
        case .beginRefresh(let name):
            try refresh(true, container: container(name), at: time, into: &published)
        case .endRefresh(let name):
            try refresh(false, container: container(name), at: time, into: &published)
        case .subscribe, .unsubscribe, .get, .observe, .unobserve, .devices, .reload, .ping:
            throw ProtocolError(.badRequest, "\(operation.name) does not change a session")
        }
        recorder?.record(operation, client: client, at: engine.now)
    }

    /// `pause` and `resume`: input is withheld from the container, or given back. The state says
    /// it is paused (docs/design.md §19), so a change is published at once.
    private mutating func setPaused(_ paused: Bool, container index: Int, at time: Timestamp, into published: inout Publications) {
        advance(to: time, into: &published)
        guard engine.slots[index].isPaused != paused else { return }
        engine.setPaused(paused, container: index)
        if paused { engine.endGesture(container: index, at: time) }
        update(container: index, at: time, into: &published) { _ = $0.state(at: $1) }
    }

    /// `beginRefresh` and `endRefresh` (docs/design.md §21): the state changes (and is published)
    /// only when the refresh does; a container without `refresh` refuses both.
    private mutating func refresh(_ on: Bool, container index: Int, at time: Timestamp, into published: inout Publications) throws(ProtocolError) {
        let container = engine.slots[index].container
        guard container.configuration.refresh != nil else {
            let op = on ? "beginRefresh" : "endRefresh"
            throw ProtocolError(.invalidValue, "invalid \"container\": \(ProtocolError.quoted(container.name)) has no refresh configured, so \(op) does not apply (configure its refresh first)")
        }
        advance(to: time, into: &published)
        guard container.isRefreshing != on else { return }
        update(container: index, at: time, into: &published) { container, time in
            if on { container.beginRefresh(at: time) } else { container.endRefresh(at: time) }
        }
    }

    func container(_ name: String) throws(ProtocolError) -> Int {
        guard let index = index(of: name) else { throw .unknownContainer(name, id: nil) }
        return index
    }

    /// `configure`: the request's keys become `containers.NAME.*` assignments on top of the
    /// container's current settings, checked exactly as the configuration file is.
    mutating func configure(
        _ name: String, _ settings: [ConfigureSetting], animation: ScrollAnimation?, at time: Timestamp,
        into published: inout Publications
    ) throws(ProtocolError) {
        let creating = index(of: name) == nil
        try checkName(name, creating: creating)
        let (updated, resolved, edit) = try configuration(setting: settings, on: name, creating: creating)
        if settings.contains(where: { $0.key == "rows" }) { try checkStoredRowHeights(name, resolved) }
        configuration = updated
        advance(to: time, into: &published)
        if let index = index(of: name) {
            // A configure that changes nothing publishes nothing (docs/design.md §19).
            let time = engine.now
            var changed = false
            _ = engine.update(container: index, at: time) { changed = $0.configure(resolved, edit: edit, animation: animation ?? .none, at: time) }
            if changed { published.states.append(engine.publish(container: index)) }
        } else {
            let index = engine.add(ScrollContainer(name: name, configuration: resolved, at: engine.now))
            published.states.append(engine.publish(container: index))
        }
    }

    /// Refuses a name `configure` cannot give a container (or, `creating`, a container it
    /// cannot add), saying why.
    private func checkName(_ name: String, creating: Bool) throws(ProtocolError) {
        // The name becomes part of a configuration key, `containers.NAME.KEY`: a dot in it would
        // address another container's keys (and never this one's).
        guard !name.utf8.contains(UInt8(ascii: ".")) else {
            throw ProtocolError(.invalidValue, "invalid \"container\": a container name cannot contain \".\" (containers are configured as containers.NAME.*)")
        }
        if let problem = Limits.nameTooLong(name) {
            throw ProtocolError(.invalidValue, "invalid \"container\": \(problem)")
        }
        guard creating else { return }
        // Names are compared byte for byte, and no two containers may be told apart only by
        // their Unicode normalisation (Swift's `==`, which the configuration's keys use).
        if otherSpelling(of: name) != nil {
            throw ProtocolError(.invalidValue, "invalid \"container\": \(ProtocolError.quoted(name)) is another Unicode spelling of an existing container's name; use that container's exact name, or another name")
        }
        guard engine.slots.count < Limits.containers else {
            throw ProtocolError(.tooLarge, "too many containers: the daemon holds at most \(Limits.containers); remove one first")
        }
    }

    /// The configuration with `settings` set on container `name`, the container as it then
    /// resolves, and the row edit among the settings; nothing is put in force yet.
    private func configuration(
        setting settings: [ConfigureSetting], on name: String, creating: Bool
    ) throws(ProtocolError) -> (Configuration, ContainerConfiguration, RowEdit?) {
        var updated = configuration
        updated.defineContainer(name)
        var edit: RowEdit?
        do {
            for setting in settings {
                // `"parent": null` takes the container out of its parent, as `""` does.
                if setting.key == "parent", setting.value == .null {
                    try updated.set("containers.\(name).parent", .string(""))
                    continue
                }
                // `"refresh": null` takes pull to refresh away, as `{}` does.
                if setting.key == "refresh", setting.value == .null {
                    try updated.set("containers.\(name).refresh", .object([]))
                    continue
                }
                let value = try setting.value.configurationValue(key: setting.key)
                if setting.key == "rows" {
                    // An edit (insert, remove) applies to the rows in force; the container then
                    // keeps its content in place across it (docs/design.md §12).
                    edit = try updated.setRows(of: name, value)
                } else {
                    try updated.set("containers.\(name).\(setting.key)", value)
                }
            }
            let resolved = try updated.resolve(container: name)
            // The parent is checked when this request sets it or creates the container: a
            // parent removed since stays named, and the container is top-level until one of
            // that name exists again (docs/design.md §14).
            if creating || settings.contains(where: { $0.key == "parent" }) {
                try updated.checkNesting(only: [name])
            }
            return (updated, resolved, edit)
        } catch {
            throw ProtocolError(.invalidValue, error.description)
        }
    }

    /// Puts a whole new configuration in force (a reload, from `client` 0 — the daemon itself —
    /// or a client's `reload`): containers it names are created or updated at once; containers
    /// created by clients and not in it stay as they are. Nothing changes when any container
    /// fails to resolve. `announcingNew` false: containers it creates or changes publish nothing
    /// (the configuration a recording starts with describes containers the daemon already had).
    @inline(never)  // a request is rare: input's way through `apply` stays short
    mutating func reload(_ new: Configuration, client: Int, at time: Timestamp, announcingNew: Bool, into published: inout Publications) throws(ConfigurationError) {
        // A configuration file says nothing of the desktop: its settings stay (a recorded
        // reload says which were in force).
        var new = new
        if new.desktop == nil { new.desktop = configuration.desktop }
        // The file's containers, before the ones clients created join them: only these are
        // the file's (a `remove` or an owner's close may still remove the others), and only
        // these are recorded, so that a replay's reload keeps the same ones the same way.
        let file = new
        new.keepContainers(from: configuration)
        guard new.containers.count <= Limits.containers else {
            throw ConfigurationError(key: "containers", message: "too many containers: the daemon holds at most \(Limits.containers) (the file's and those clients created)")
        }
        // The file's names against the clients' containers: one that is only another Unicode
        // spelling of a client's would become a second container no request could name.
        for settings in file.containers {
            guard let other = otherSpelling(of: settings.name) else { continue }
            throw ConfigurationError(key: "containers.\(settings.name)", message: "is another Unicode spelling of the name of a container a client created (\(Configuration.quoted(other))); rename one of them")
        }
        // The file was checked alone; with the clients' containers its chains may grow.
        try new.checkNesting(only: file.containers.map(\.name))
        var resolved: [(name: String, settings: ContainerConfiguration)] = []
        for settings in new.containers {
            resolved.append((settings.name, try new.resolve(container: settings.name)))
        }
        fileContainers = Set(file.containers.map(\.name))
        // The configuration a recording opens with is what the daemon's containers already
        // had: a replay started under other options takes it on silently, as the live
        // subscribers saw nothing then.
        putInForce(new, resolved: resolved, at: time, announcing: announcingNew, into: &published)
        recorder?.recordReload(file, client: client, at: engine.now)
    }

    /// Puts `new` in force at `time` (after what was due before it): the frame rate, the shaping
    /// (from each device's next event, docs/design.md §18) and each container's `resolved`
    /// settings, a container not there yet being created. With `announcing`, a container whose
    /// settings changed, and a new one, publish their state.
    mutating func putInForce(
        _ new: Configuration, resolved: [(name: String, settings: ContainerConfiguration)], at time: Timestamp,
        announcing: Bool, into published: inout Publications
    ) {
        advance(to: Swift.max(time, engine.now), into: &published)
        let time = engine.now
        configuration = new
        engine.frameRate = new.daemon.frameRate
        engine.setShapingRules(new.shapingRules)
        for (name, settings) in resolved {
            if let index = index(of: name) {
                var changed = false
                _ = engine.update(container: index, at: time) { changed = $0.configure(settings, at: time) }
                if changed, announcing { published.states.append(engine.publish(container: index)) }
            } else {
                let index = engine.add(ScrollContainer(name: name, configuration: settings, at: time))
                if announcing { published.states.append(engine.publish(container: index)) }
            }
        }
    }
}

extension Session {
    /// Refuses rows that would take the row heights stored over every container past
    /// ``Limits/storedRowHeights``.
    func checkStoredRowHeights(_ name: String, _ resolved: ContainerConfiguration) throws(ProtocolError) {
        let others = engine.slots.reduce(0) { total, slot in
            slot.container.name == name ? total : total + (slot.container.configuration.rows?.heights.storedEntries ?? 0)
        }
        let stored = others + (resolved.rows?.heights.storedEntries ?? 0)
        guard stored <= Limits.storedRowHeights else {
            throw ProtocolError(
                .tooLarge,
                "too many row heights: the daemon stores at most \(Limits.storedRowHeights) over every container (explicit heights, and one per run of equal heights), and these rows would make \(stored); remove rows, or give heights as count and height")
        }
    }
}
