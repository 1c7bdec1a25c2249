import ScrollConfig
import ScrollModel
import ScrollProtocol

extension Session {
    /// Applies a request that changes state (`configure`, `scrollTo`, `scrollBy`, `pause`,
    /// `resume`) from connection `client` at `time` (or at `now`, if that is later), publishing
    /// what it changes and recording it. A request that fails changes nothing and is not
    /// recorded. Other operations are the daemon's business (they read, or concern the
    /// connection) and are refused here.
    public mutating func perform(_ operation: Operation, client: Int, at time: Timestamp, _ publish: (Publication) -> Void) throws(ProtocolError) {
        let time = Swift.max(time, engine.now)
        switch operation {
        case let .configure(name, settings, animation):
            try configure(name, settings, animation: animation, at: time, publish)
        case let .scrollTo(name, target, animation):
            let index = try container(name)
            update(container: index, at: time, publish) { $0.scroll(to: target, animation: animation, at: $1) }
        case let .scrollBy(name, delta, animation):
            let index = try container(name)
            update(container: index, at: time, publish) { $0.scroll(by: delta, animation: animation, at: $1) }
        case .pause(let name):
            let index = try container(name)
            advance(to: time, publish)
            engine.setPaused(true, container: index)
        case .resume(let name):
            let index = try container(name)
            advance(to: time, publish)
            engine.setPaused(false, container: index)
        case .subscribe, .unsubscribe, .get, .devices, .reload, .ping:
            throw ProtocolError(.badRequest, "\(operation.name) does not change a session")
        }
        recorder?.record(operation, client: client, at: engine.now)
    }

    func container(_ name: String) throws(ProtocolError) -> Int {
        guard let index = index(of: name) else { throw .unknownContainer(name, id: nil) }
        return index
    }

    /// `configure`: the request's keys become `containers.NAME.*` assignments on top of the
    /// container's current settings, checked exactly as the configuration file is.
    mutating func configure(
        _ name: String, _ settings: [ConfigureSetting], animation: ScrollAnimation?, at time: Timestamp,
        _ publish: (Publication) -> Void
    ) throws(ProtocolError) {
        // The name becomes part of a configuration key, `containers.NAME.KEY`: a dot in it would
        // address another container's keys (and never this one's).
        guard !name.utf8.contains(UInt8(ascii: ".")) else {
            throw ProtocolError(.invalidValue, "invalid \"container\": a container name cannot contain \".\" (containers are configured as containers.NAME.*)")
        }
        var updated = configuration
        updated.defineContainer(name)
        let resolved: ContainerConfiguration
        do {
            for setting in settings {
                try updated.set("containers.\(name).\(setting.key)", try ConfigValue(setting.value, key: setting.key))
            }
            resolved = try updated.resolve(container: name)
        } catch {
            throw ProtocolError(.invalidValue, error.description)
        }
        configuration = updated
        if let index = index(of: name) {
            update(container: index, at: time, publish) { $0.configure(resolved, animation: animation ?? .none, at: $1) }
        } else {
            advance(to: time, publish)
            let index = add(ScrollContainer(name: name, configuration: resolved, at: engine.now))
            publishState(of: index, publish)
        }
    }

    /// Puts a whole new configuration in force (a reload, from `client` 0 — the daemon itself —
    /// or a client's `reload`): containers it names are created or updated at once; containers
    /// created by clients and not in it stay as they are. Nothing changes when any container
    /// fails to resolve.
    public mutating func reload(_ new: Configuration, client: Int, at time: Timestamp, _ publish: (Publication) -> Void) throws(ConfigurationError) {
        var new = new
        new.keepContainers(from: configuration)
        var resolved: [(String, ContainerConfiguration)] = []
        for settings in new.containers {
            resolved.append((settings.name, try new.resolve(container: settings.name)))
        }
        let time = Swift.max(time, engine.now)
        advance(to: time, publish)
        configuration = new
        engine.frameRate = new.daemon.frameRate
        for (name, container) in resolved {
            if let index = index(of: name) {
                guard engine.slots[index].container.configuration != container else { continue }
                update(container: index, at: time, publish) { $0.configure(container, at: $1) }
            } else {
                let index = add(ScrollContainer(name: name, configuration: container, at: engine.now))
                publishState(of: index, publish)
            }
        }
        recorder?.recordConfiguration(configuration, client: client, at: engine.now)
    }
}

extension ConfigValue {
    /// A request's JSON value as a configuration value, checked as the configuration file's.
    public init(_ value: ProtocolValue, key: String) throws(ConfigurationError) {
        switch value {
        case .string(let s): self = .string(s)
        case .integer(let i): self = .integer(i)
        case .double(let d): self = .double(d)
        case .bool(let b): self = .bool(b)
        case .array(let items):
            var converted: [ConfigValue] = []
            for item in items { converted.append(try ConfigValue(item, key: key)) }
            self = .array(converted)
        case .object(let members):
            var converted: [(String, ConfigValue)] = []
            for (name, item) in members { converted.append((name, try ConfigValue(item, key: "\(key).\(name)"))) }
            self = .table(converted)
        case .null:
            throw ConfigurationError(key: key, message: "null is not a value here")
        }
    }
}

extension ProtocolValue {
    /// A configuration value as JSON (for recorded configurations).
    init(_ value: ConfigValue) {
        switch value {
        case .string(let s): self = .string(s)
        case .integer(let i): self = .integer(i)
        case .double(let d): self = .double(d)
        case .bool(let b): self = .bool(b)
        case .array(let items): self = .array(items.map(ProtocolValue.init))
        case .table(let members): self = .object(members.map { ($0.0, ProtocolValue($0.1)) })
        }
    }
}
