import NIOCore
import ScrollConfig
import ScrollInput
import ScrollModel
import ScrollProtocol
import ScrollSession

/// docs/design.md §7: one request in, one reply out (plus states for subscriptions). A bad request
/// gets an error naming the problem and the connection stays open.
///
/// Answers what reads (`get`, `devices`, `ping`) and what concerns the connection (`subscribe`,
/// `observe` and their ends) itself; what changes containers goes to the core as a command
/// (``perform(_:from:)``), and a reload to the configuration source.
final class RequestHandler {
    unowned let core: DaemonCore

    init(core: DaemonCore) {
        self.core = core
    }

    func isAllowed(uid: UInt32, daemonUID: UInt32) -> Bool {
        uid == daemonUID || core.session.configuration.daemon.allowUIDs.contains(uid)
    }

    func line(_ body: (inout [UInt8]) -> Void) -> ByteBuffer {
        var bytes: [UInt8] = []
        body(&bytes)
        bytes.append(UInt8(ascii: "\n"))
        return ByteBuffer(bytes: bytes)
    }

    /// The extensions of docs/design.md §12–§25 this daemon implements, for `welcome`.
    /// `welcome`'s features: the extensions this daemon implements, whether or not a client
    /// uses them now ("web" with the listener off, "touch" with no touchscreen, "desktop" with
    /// no desktop found), as docs/design.md's introduction to part two says.
    static let features = ["positions", "observe", "routing", "record-requests", "session", "restore", "follow", "touch", "appbars", "gestures", "desktop", "web"]

    func welcome() -> ByteBuffer {
        line { ReplyEncoder.welcome(server: core.serverName, containers: core.session.names, features: Self.features, instance: core.instance, focus: .some(core.session.focus), into: &$0) }
    }

    /// A request's answer: at once, or once the work it asked for is done (a reload reads and
    /// parses the configuration file off the loop).
    enum Answer {
        case now(ByteBuffer)
        case later(EventLoopFuture<ByteBuffer>)
    }

    /// Answers `request`: nil once answered, or a future that completes when the answer is
    /// sent. The connection's later requests wait for it (``ClientHandler``), so they apply
    /// after it, in order, as if it had been answered at once.
    func handle(_ request: ByteBuffer, from client: Client) -> EventLoopFuture<Void>? {
        let answer: Answer
        do throws(ProtocolError) {
            let decoded = try request.withUnsafeReadableBytes { bytes in
                Result { () throws(ProtocolError) in try RequestDecoder.decode(bytes) }
            }.get()
            answer = try perform(decoded, for: client)
            switch decoded.operation.storeChange {
            case .session(let settings): core.store?.containersChanged(settings)
            case .connection: core.store?.connectionChanged(client)
            case .none: break
            }
        } catch {
            answer = .now(line { ReplyEncoder.error(error, into: &$0) })
        }
        switch answer {
        case .now(let reply):
            client.reply(reply)
            return nil
        case .later(let reply):
            return reply.assumeIsolated().map { reply in
                if client.isConnected { client.reply(reply) }
            }.nonisolated()
        }
    }

    func perform(_ request: Request, for client: Client) throws(ProtocolError) -> Answer {
        let id = request.id
        switch request.operation {
        case .ping:
            return .now(line { ReplyEncoder.pong(id: id, into: &$0) })
        case let .subscribe(name, rate, wait):
            guard wait, core.session.index(of: name) == nil else {
                let (index, container) = try core.container(named: name, id: id)
                guard client.isSubscribed(to: container) || core.publisher.subscriptionCount < Limits.allSubscriptions else {
                    throw ProtocolError(.tooLarge, "too many subscriptions (at most \(Limits.allSubscriptions) over every connection and container)", id: id)
                }
                core.publisher.subscribe(client, to: container, rate: rate, waits: wait)
                return .now(stateReply(of: index, name: name, id: id))
            }
            try startWaiting(Waiter(client: client, name: name, kind: .subscription(rate: rate)), id: id)
            return .now(line { ReplyEncoder.waiting(container: name, id: id, into: &$0) })
        case .unsubscribe(let name):
            try unsubscribe(client, from: name, id: id)
            return .now(line { ReplyEncoder.ok(id: id, into: &$0) })
        case .get(let name):
            let (index, _) = try core.container(named: name, id: id)
            return .now(stateReply(of: index, name: name, id: id))
        case let .observe(name, observation, observationID, wait):
            return .now(try observe(observation, of: name, id: observationID, waits: wait, for: client, request: id))
        case .unobserve(let observationID):
            if let waiter = client.waiters.observation(observationID) {
                core.publisher.unwait(waiter)
                return .now(line { ReplyEncoder.ok(id: id, into: &$0) })
            }
            guard let observer = client.observers[observationID] else {
                throw ProtocolError(.invalidValue, "invalid \"id\": \(observationID.json) names no observation on this connection", id: id)
            }
            core.publisher.unobserve(observer)
            return .now(line { ReplyEncoder.ok(id: id, into: &$0) })
        case .configure, .scrollTo, .scrollBy, .pause, .resume, .remove, .focus, .beginRefresh, .endRefresh, .flashIndicators:
            do {
                try perform(request.operation, from: client)
            } catch {
                var error = error
                error.id = id
                throw error
            }
            return .now(line { ReplyEncoder.ok(id: id, into: &$0) })
        case .devices:
            let reducedMotion = core.session.configuration.reducedMotion
            return .now(line { ReplyEncoder.devices(devices, focus: .some(core.session.focus), input: core.inputState, reducedMotion: reducedMotion, id: id, into: &$0) })
        case .reload:
            return .later(reload(id: id))
        }
    }

    /// `reload`: the reply once the file is read and put in force, or refused.
    private func reload(id: RequestID?) -> EventLoopFuture<ByteBuffer> {
        let core = self.core
        return core.reload().assumeIsolated().map { result in
            // The reply says it; the log says it once for a run of the same result (a client
            // pipelining reloads). SIGHUP and the file's watcher log every one.
            if !core.reloadRepeated {
                if result.ok { core.logger.notice("configuration reloaded: \(result.message)") } else { core.logger.error("reload refused: \(result.message)") }
            }
            return self.line { ReplyEncoder.reloaded(result, id: id, into: &$0) }
        }.nonisolated()
    }

    /// `observe`: the observation starts at once (its first message, `old` null) or waits for
    /// its container, within the connection's and the container's limits.
    private func observe(
        _ observation: ScrollObservation, of name: String, id observationID: RequestID, waits: Bool, for client: Client, request id: RequestID?
    ) throws(ProtocolError) -> ByteBuffer {
        guard let (index, container) = try admitObservation(of: name, id: observationID, waits: waits, for: client, request: id) else {
            try startWaiting(Waiter(client: client, name: name, kind: .observation(observation, id: observationID)), id: id)
            return line { ReplyEncoder.waiting(container: name, id: id, into: &$0) }
        }
        startObserving(observation, id: observationID, of: index, container, for: client, waits: waits)
        return ByteBuffer()
    }

    /// Whether `client` may have one more observation, `observationID`, of `name`: its
    /// container (nil: none of that name, and it waits), or the refusal. A connection taken back
    /// after a restart meets the same limits (``RestartStore/resume(_:)``).
    func admitObservation(
        of name: String, id observationID: RequestID, waits: Bool, for client: Client, request id: RequestID?
    ) throws(ProtocolError) -> (index: Int, published: PublishedContainer)? {
        guard observationID.json.utf8.count <= Limits.observationIDBytes else {
            throw ProtocolError(.tooLarge, "an observation's \"id\" is at most \(Limits.observationIDBytes) bytes of JSON, got \(observationID.json.utf8.count)", id: id)
        }
        let existing = try? core.container(named: name)
        if existing == nil, !waits { throw .unknownContainer(name, id: id) }
        guard client.observers[observationID] == nil, client.waiters.observation(observationID) == nil else {
            throw ProtocolError(.invalidValue, "invalid \"id\": \(observationID.json) already names an observation on this connection", id: id)
        }
        guard client.observationCount < Limits.observations else {
            throw ProtocolError(.tooLarge, "too many observations on this connection (at most \(Limits.observations), waiting ones included)", id: id)
        }
        guard core.publisher.observationCount(named: name, in: existing?.published) < Limits.containerObservations else {
            throw ProtocolError(
                .tooLarge, "too many observations of container \(ProtocolError.quoted(name)) (at most \(Limits.containerObservations) over every connection, waiting ones included)", id: id)
        }
        guard core.publisher.observationCount < Limits.allObservations else {
            throw ProtocolError(
                .tooLarge, "too many observations (at most \(Limits.allObservations) over every connection and container, waiting ones included)", id: id)
        }
        return existing
    }

    /// `unsubscribe`: of one container or of all (nil); a waiting subscription ends too
    /// (docs/design.md §20).
    private func unsubscribe(_ client: Client, from name: String?, id: RequestID?) throws(ProtocolError) {
        guard let name else {
            for waiter in client.waiters.inOrder where waiter.observationID == nil { core.publisher.unwait(waiter) }
            core.publisher.unsubscribe(client, from: nil)
            return
        }
        let waiting = client.waiters.subscription(to: name).map { [$0] } ?? []
        for waiter in waiting { core.publisher.unwait(waiter) }
        if waiting.isEmpty || core.session.index(of: name) != nil {
            core.publisher.unsubscribe(client, from: try core.container(named: name, id: id).published)
        }
    }

    /// The input devices in use, each with the containers it drives and the rules shaping it.
    private var devices: [DeviceInfo] {
        core.devices.map { device in
            var device = device
            device.containers = core.session.engine.slots.filter {
                $0.container.configuration.devices.isEmpty || $0.container.configuration.devices.contains(device.name)
            }.map(\.container.name)
            device.rules = core.session.configuration.input.ruleNames(forDevice: device.name)
            let effective = core.session.configuration.shapingRules.effective(forDevice: device.name, touchpad: DesktopInput.isTouchpad(device.capabilities))
            device.naturalScrolling = effective.naturalScrolling
            device.speed = effective.speed
            return device
        }
    }

    /// An observation of the container at `index` starts: its current value at once (`old`
    /// null), then every change.
    private func startObserving(_ observation: ScrollObservation, id: RequestID, of index: Int, _ container: PublishedContainer, for client: Client, waits: Bool) {
        let observer = Observer(id: id, observation: observation, client: client, container: container, waits: waits)
        core.publisher.observe(observer)
        let state = core.session.state(of: index, at: core.eventLoop.timestamp)
        observer.offer(core.session.value(of: observation, container: index, in: state), seq: core.session.engine.slots[index].seq, time: state.time)
    }

    // MARK: Waiting (docs/design.md §20)

    /// `waiter` waits for its container, within the connection's and the daemon's limits.
    private func startWaiting(_ waiter: Waiter, id: RequestID?) throws(ProtocolError) {
        // A name no container can have would wait for ever.
        if let problem = Limits.nameTooLong(waiter.name) {
            throw ProtocolError(.invalidValue, "invalid \"container\": \(problem)", id: id)
        }
        switch core.publisher.wait(waiter) {
        case nil: return
        case .connection?:
            throw ProtocolError(.tooLarge, "too many waiting subscriptions and observations on this connection (at most \(Limits.waiting))", id: id)
        case .daemon?:
            throw ProtocolError(.tooLarge, "too many waiting subscriptions and observations (at most \(Limits.allWaiting) over every connection)", id: id)
        }
    }

    /// The container `container` (at `index`) was just created: what waited for it starts as an
    /// ordinary subscription (its current state, without an id) or observation (its first
    /// message, `old` null), and waits again after a `removed`.
    func created(_ container: PublishedContainer, at index: Int) {
        for waiter in core.publisher.takeWaiters(for: container.name) {
            // Starting an earlier waiter wrote to its connection; a write that failed closed
            // it, and this may be another of its waiters.
            guard waiter.client.isConnected else { continue }
            switch waiter.kind {
            case .subscription(let rate):
                core.publisher.subscribe(waiter.client, to: container, rate: rate, waits: true)
                waiter.client.reply(stateReply(of: index, name: container.name, id: nil))
            case let .observation(observation, id):
                startObserving(observation, id: id, of: index, container, for: waiter.client, waits: true)
            }
        }
    }

    /// The container's current state, evaluated now on a copy (for `get` and `subscribe`): input
    /// stamped before now but not yet delivered (the input thread's latency, a busy loop behind
    /// a replay) must still apply at its own time.
    private func stateReply(of index: Int, name: String, id: RequestID?) -> ByteBuffer {
        let state = core.session.state(of: index, at: core.eventLoop.timestamp)
        let slot = core.session.engine.slots[index]
        return line { ReplyEncoder.state(state, container: name, seq: slot.seq, paused: slot.isPaused, id: id, into: &$0) }
    }
}
