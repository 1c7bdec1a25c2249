import ScrollModel
import ScrollProtocol

extension ScrollClient {
    /// The container's current state (`get`).
    public func get(_ container: String) async throws -> StateLine {
        let reply = try await request(.get(container: container))
        guard case .state(let line) = reply else { throw Self.unexpected(reply, for: "get") }
        return line
    }

    /// Creates the container or changes the given settings (`configure`, docs/design.md §7, §12,
    /// §19): keys as the configuration file names them (`containerSize`, `rows`, …), `animation`
    /// nil for at once, `owned` to have it removed when this connection closes.
    public func configure(
        _ container: String, _ settings: [ConfigureSetting], animation: ScrollAnimation? = nil, owned: Bool = false
    ) async throws {
        try await expectOK(.configure(container: container, settings: settings, animation: animation, owned: owned))
    }

    /// Scrolls to coordinates, a row with an anchor, or an edge (docs/design.md §12).
    public func scroll(_ container: String, to position: ScrollPosition, animation: ScrollAnimation = .smooth) async throws {
        try await expectOK(.scrollTo(container: container, position: position, animation: animation))
    }

    /// Scrolls by a distance per axis.
    public func scroll(_ container: String, by delta: AxisValues, animation: ScrollAnimation = .smooth) async throws {
        try await expectOK(.scrollBy(container: container, delta: delta, animation: animation))
    }

    /// Stops routing input to the container (undone when this connection closes,
    /// docs/design.md §19).
    public func pause(_ container: String) async throws {
        try await expectOK(.pause(container: container))
    }

    public func resume(_ container: String) async throws {
        try await expectOK(.resume(container: container))
    }

    /// Removes a container a client created.
    public func remove(_ container: String) async throws {
        try await expectOK(.remove(container: container))
    }

    /// The input devices the daemon reads, and whether it reads them now (docs/design.md §15:
    /// paused while its user is not at the seat, or while the system sleeps).
    public func devices() async throws -> (devices: [DeviceInfo], input: InputState?) {
        let reply = try await request(.devices)
        guard case .devices(_, let devices, let input) = reply else { throw Self.unexpected(reply, for: "devices") }
        return (devices, input)
    }

    /// Has the daemon read its configuration again; a refused file is a result, not an error.
    public func reload() async throws -> ReloadResult {
        let reply = try await request(.reload)
        guard case .reloaded(_, let result) = reply else { throw Self.unexpected(reply, for: "reload") }
        return result
    }

    /// The round trip to the daemon.
    public func ping() async throws -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        let reply = try await request(.ping)
        guard case .pong = reply else { throw Self.unexpected(reply, for: "ping") }
        return start.duration(to: clock.now)
    }

    func expectOK(_ operation: Operation) async throws {
        let reply = try await request(operation)
        guard case .ok = reply else { throw Self.unexpected(reply, for: operation.name) }
    }

    static func unexpected(_ reply: Reply, for operation: String) -> ScrollClientError {
        .protocolViolation("unexpected reply to \(operation): \(reply)")
    }
}

extension ScrollClient {
    /// Gives the focus to `container` (docs/design.md §14): input not bound to a container by
    /// device goes to it and along its chain only; nil restores the default. The last focus wins,
    /// and it is undone when this connection closes.
    public func focus(_ container: String?) async throws {
        try await expectOK(.focus(container: container))
    }
}
