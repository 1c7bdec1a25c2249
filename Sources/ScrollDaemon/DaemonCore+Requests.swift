import NIOCore
import ScrollConfig
import ScrollInput
import ScrollModel
import ScrollProtocol
import ScrollSession

/// docs/design.md §7: one request in, one reply out (plus states for subscriptions). A bad request
/// gets an error naming the problem and the connection stays open.
extension DaemonCore {
    func isAllowed(uid: UInt32, daemonUID: UInt32) -> Bool {
        uid == daemonUID || configuration.daemon.allowUIDs.contains(uid)
    }

    func line(_ body: (inout [UInt8]) -> Void) -> ByteBuffer {
        var bytes: [UInt8] = []
        body(&bytes)
        bytes.append(UInt8(ascii: "\n"))
        return ByteBuffer(bytes: bytes)
    }

    /// The extensions of docs/design.md §12–§19 this daemon implements, for `welcome`.
    static let features = ["positions", "observe", "routing", "record-requests", "session", "restore", "touch"]

    func welcome() -> ByteBuffer {
        line { ReplyEncoder.welcome(server: serverName, containers: session.names, features: Self.features, instance: instance, focus: .some(session.focus), into: &$0) }
    }

    func handle(_ request: ByteBuffer, from client: Client) {
        let reply: ByteBuffer
        do throws(ProtocolError) {
            let decoded = try request.withUnsafeReadableBytes { bytes in
                Result { () throws(ProtocolError) in try RequestDecoder.decode(bytes) }
            }.get()
            reply = try perform(decoded, for: client)
            switch decoded.operation.storeChange {
            case .session: sessionChanged()
            case .connection: sessionChanged(connection: client)
            case .none: break
            }
        } catch {
            reply = line { ReplyEncoder.error(error, into: &$0) }
        }
        client.reply(reply)
    }

    func perform(_ request: Request, for client: Client) throws(ProtocolError) -> ByteBuffer {
        let id = request.id
        switch request.operation {
        case .ping:
            return line { ReplyEncoder.pong(id: id, into: &$0) }
        case let .subscribe(name, rate):
            let (index, container) = try self.container(named: name, id: id)
            publisher.subscribe(client, to: container, rate: rate)
            return stateReply(of: index, name: name, id: id)
        case .unsubscribe(let name):
            let container = try name.map { (name: String) throws(ProtocolError) in try self.container(named: name, id: id).published }
            publisher.unsubscribe(client, from: container)
            return line { ReplyEncoder.ok(id: id, into: &$0) }
        case .get(let name):
            let (index, _) = try container(named: name, id: id)
            return stateReply(of: index, name: name, id: id)
        case let .observe(name, observation, observationID):
            let (index, container) = try self.container(named: name, id: id)
            guard client.observers[observationID] == nil else {
                throw ProtocolError(.invalidValue, "invalid \"id\": \(observationID.json) already names an observation on this connection", id: id)
            }
            let observer = Observer(id: observationID, observation: observation, client: client, container: container)
            publisher.observe(observer)
            // The current value at once (`old` null), then every change.
            let state = session.state(of: index, at: eventLoop.timestamp)
            observer.offer(session.value(of: observation, container: index, in: state), seq: session.engine.slots[index].seq, time: state.time)
            return ByteBuffer()
        case .unobserve(let observationID):
            guard let observer = client.observers[observationID] else {
                throw ProtocolError(.invalidValue, "invalid \"id\": \(observationID.json) names no observation on this connection", id: id)
            }
            publisher.unobserve(observer)
            return line { ReplyEncoder.ok(id: id, into: &$0) }
        case .configure, .scrollTo, .scrollBy, .pause, .resume, .remove, .focus:
            do {
                try perform(request.operation, from: client)
            } catch {
                var error = error
                error.id = id
                throw error
            }
            return line { ReplyEncoder.ok(id: id, into: &$0) }
        case .devices:
            let list = devices.map { device in
                var device = device
                device.containers = session.engine.slots.filter {
                    $0.container.configuration.devices.isEmpty || $0.container.configuration.devices.contains(device.name)
                }.map(\.container.name)
                device.rules = session.configuration.input.ruleNames(forDevice: device.name)
                return device
            }
            return line { ReplyEncoder.devices(list, focus: .some(session.focus), input: inputState, id: id, into: &$0) }
        case .reload:
            let result = reload()
            if result.ok { logger.notice("configuration reloaded: \(result.message)") } else { logger.error("reload refused: \(result.message)") }
            return line { ReplyEncoder.reloaded(result, id: id, into: &$0) }
        }
    }

    /// The container's current state, evaluated now on a copy (for `get` and `subscribe`): input
    /// stamped before now but not yet delivered (the input thread's latency, a busy loop behind
    /// a replay) must still apply at its own time.
    private func stateReply(of index: Int, name: String, id: RequestID?) -> ByteBuffer {
        let state = session.state(of: index, at: eventLoop.timestamp)
        let slot = session.engine.slots[index]
        return line { ReplyEncoder.state(state, container: name, seq: slot.seq, paused: slot.isPaused, id: id, into: &$0) }
    }

    /// Applies a state-changing request from `client` now, notes the leases it takes or gives
    /// up (docs/design.md §19), then publishes and reschedules.
    func perform(_ operation: Operation, from client: Client) throws(ProtocolError) {
        defer { finish() }
        let existing = operation.container.flatMap { session.index(of: $0) }.map { session.engine.slots[$0].id }
        try execute(.request(operation, client: client.number, at: eventLoop.timestamp))
        switch operation {
        case .configure(let name, _, _, true) where existing == nil:
            if let index = session.index(of: name) { publisher[session.engine.slots[index].id]?.owner = client.number }
        case .pause:
            if let existing { publisher[existing]?.pausedBy = client.number }
        case .resume:
            if let existing { publisher[existing]?.pausedBy = nil }
        case .focus(let name):
            connections.focusedBy = name == nil ? nil : client.number
        case .remove:
            if let existing { publisher.remove(existing) }
            if session.focus == nil { connections.focusedBy = nil }
        default:
            break
        }
    }
}
