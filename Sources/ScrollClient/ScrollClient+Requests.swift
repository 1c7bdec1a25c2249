import ScrollModel
import ScrollProtocol

extension ScrollClient {
    /// The container's current state (`get`).
    public func get(_ container: String) async throws(ScrollClientError) -> ContainerState {
        let received = try await connection.request(RequestLine("get", [("container", .string(container))]))
        guard case .state(let line) = received.reply else { throw Self.unexpected(received.reply, for: "get") }
        return ContainerState(line)
    }

    /// Creates the container or changes the settings given (`configure`, docs/design.md §7, §12,
    /// §14, §19): `animation` `.none` (the default) applies them at once; `owned` has a container
    /// this request creates removed when this connection closes (on one that exists it changes
    /// nothing).
    public func configure(
        _ container: String, _ settings: ContainerSettings, animation: ScrollAnimation = .none, owned: Bool = false
    ) async throws(ScrollClientError) {
        var members: [(String, ProtocolValue)] = [("container", .string(container))] + settings.members
        if animation != .none { members.append(("animation", .animation(animation))) }
        if owned { members.append(("owned", .bool(true))) }
        try await expectOK(RequestLine("configure", members), effect: .configure(container, settings, owned: owned))
    }

    /// Scrolls to coordinates, a row with an anchor, or an edge (docs/design.md §12).
    public func scroll(_ container: String, to position: ScrollPosition, animation: ScrollAnimation = .smooth) async throws(ScrollClientError) {
        var members: [(String, ProtocolValue)] = [("container", .string(container))]
        if let x = position.point.x { members.append(("x", .double(x))) }
        if let y = position.point.y { members.append(("y", .double(y))) }
        if let row = position.row { members.append(("row", .integer(row))) }
        if let anchor = position.anchor { members.append(("anchor", .double(anchor.fraction))) }
        if let edge = position.edge { members.append(("edge", .string(edge.rawValue))) }
        members.append(("animation", .animation(animation)))
        try await expectOK(RequestLine("scrollTo", members), effect: .scroll(container, to: position))
    }

    /// Scrolls by a distance per axis, px.
    public func scroll(_ container: String, by delta: AxisValues, animation: ScrollAnimation = .smooth) async throws(ScrollClientError) {
        var members: [(String, ProtocolValue)] = [("container", .string(container))]
        if let dx = delta.x { members.append(("dx", .double(dx))) }
        if let dy = delta.y { members.append(("dy", .double(dy))) }
        members.append(("animation", .animation(animation)))
        try await expectOK(RequestLine("scrollBy", members))
    }

    /// Stops routing input to the container (undone when this connection closes,
    /// docs/design.md §19; a reconnecting client pauses it again).
    public func pause(_ container: String) async throws(ScrollClientError) {
        try await expectOK(RequestLine("pause", [("container", .string(container))]), effect: .pause(container))
    }

    /// Routes input to the container again.
    public func resume(_ container: String) async throws(ScrollClientError) {
        try await expectOK(RequestLine("resume", [("container", .string(container))]), effect: .resume(container))
    }

    /// Removes a container a client created; its subscribers and observers hear
    /// ``ScrollClientError/removed(container:)``.
    public func remove(_ container: String) async throws(ScrollClientError) {
        try await expectOK(RequestLine("remove", [("container", .string(container))]), effect: .remove(container))
    }

    /// Starts a refresh without a pull (docs/design.md §21): the state's `refreshing` turns true
    /// and the top of the resting range is `lo − height`; nothing moves. A container without
    /// `refresh` refuses it (`invalid_value`).
    public func beginRefresh(_ container: String) async throws(ScrollClientError) {
        try await expectOK(RequestLine("beginRefresh", [("container", .string(container))]))
    }

    /// Ends the refresh: a container resting beyond the top springs back to it.
    public func endRefresh(_ container: String) async throws(ScrollClientError) {
        try await expectOK(RequestLine("endRefresh", [("container", .string(container))]))
    }

    /// Gives the focus to `container` (docs/design.md §14): input not bound to a container by
    /// device goes to it and along its chain only; nil restores the default. The last focus wins,
    /// and it is undone when this connection closes.
    public func focus(_ container: String?) async throws(ScrollClientError) {
        try await expectOK(RequestLine("focus", [("container", container.map { .string($0) } ?? .null)]), effect: .focus(container))
    }

    /// The input devices the daemon reads, whether it reads them now (docs/design.md §15), and
    /// the focus.
    public func devices() async throws(ScrollClientError) -> Devices {
        let received = try await connection.request(RequestLine("devices"))
        guard case .devices(_, let devices, let input, _, _) = received.reply else { throw Self.unexpected(received.reply, for: "devices") }
        var focus: String?
        if case .string(let name)? = (try? ProtocolValue(parsing: received.line))?[member: "focus"] { focus = name }
        return Devices(devices: devices, input: input, focus: focus)
    }

    /// Has the daemon read its configuration again; a refused file is a result, not an error.
    public func reload() async throws(ScrollClientError) -> ReloadResult {
        let received = try await connection.request(RequestLine("reload"))
        guard case .reloaded(_, let result) = received.reply else { throw Self.unexpected(received.reply, for: "reload") }
        return result
    }

    /// The round trip to the daemon.
    @discardableResult
    public func ping() async throws(ScrollClientError) -> Duration {
        let clock = ContinuousClock()
        let start = clock.now
        let received = try await connection.request(RequestLine("ping"))
        guard case .pong = received.reply else { throw Self.unexpected(received.reply, for: "ping") }
        return start.duration(to: clock.now)
    }

    private func expectOK(_ request: RequestLine, effect: Connection.Effect? = nil) async throws(ScrollClientError) {
        let received = try await connection.request(request, effect: effect)
        guard case .ok = received.reply else { throw Self.unexpected(received.reply, for: request.op) }
    }

    static func unexpected(_ reply: Reply, for operation: String) -> ScrollClientError {
        .protocolViolation("unexpected reply to \(operation): \(reply)")
    }
}
