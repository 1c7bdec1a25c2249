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
/// (``DaemonCore/perform(_:from:)``), and a reload to the configuration source.
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
    static let features = ["positions", "observe", "routing", "record-requests", "session", "restore", "touch"]

    func welcome() -> ByteBuffer {
        line { ReplyEncoder.welcome(server: core.serverName, containers: core.session.names, features: Self.features, instance: core.instance, focus: .some(core.session.focus), into: &$0) }
    }

    func handle(_ request: ByteBuffer, from client: Client) {
        let reply: ByteBuffer
        do throws(ProtocolError) {
            let decoded = try request.withUnsafeReadableBytes { bytes in
                Result { () throws(ProtocolError) in try RequestDecoder.decode(bytes) }
            }.get()
            reply = try perform(decoded, for: client)
            switch decoded.operation.storeChange {
            case .session: core.sessionChanged()
            case .connection: core.sessionChanged(connection: client)
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
            let (index, container) = try core.container(named: name, id: id)
            core.publisher.subscribe(client, to: container, rate: rate)
            return stateReply(of: index, name: name, id: id)
        case .unsubscribe(let name):
            let container = try name.map { (name: String) throws(ProtocolError) in try core.container(named: name, id: id).published }
            core.publisher.unsubscribe(client, from: container)
            return line { ReplyEncoder.ok(id: id, into: &$0) }
        case .get(let name):
            let (index, _) = try core.container(named: name, id: id)
            return stateReply(of: index, name: name, id: id)
        case let .observe(name, observation, observationID):
            let (index, container) = try core.container(named: name, id: id)
            guard client.observers[observationID] == nil else {
                throw ProtocolError(.invalidValue, "invalid \"id\": \(observationID.json) already names an observation on this connection", id: id)
            }
            let observer = Observer(id: observationID, observation: observation, client: client, container: container)
            core.publisher.observe(observer)
            // The current value at once (`old` null), then every change.
            let state = core.session.state(of: index, at: core.eventLoop.timestamp)
            observer.offer(core.session.value(of: observation, container: index, in: state), seq: core.session.engine.slots[index].seq, time: state.time)
            return ByteBuffer()
        case .unobserve(let observationID):
            guard let observer = client.observers[observationID] else {
                throw ProtocolError(.invalidValue, "invalid \"id\": \(observationID.json) names no observation on this connection", id: id)
            }
            core.publisher.unobserve(observer)
            return line { ReplyEncoder.ok(id: id, into: &$0) }
        case .configure, .scrollTo, .scrollBy, .pause, .resume, .remove, .focus:
            do {
                try core.perform(request.operation, from: client)
            } catch {
                var error = error
                error.id = id
                throw error
            }
            return line { ReplyEncoder.ok(id: id, into: &$0) }
        case .devices:
            let list = core.devices.map { device in
                var device = device
                device.containers = core.session.engine.slots.filter {
                    $0.container.configuration.devices.isEmpty || $0.container.configuration.devices.contains(device.name)
                }.map(\.container.name)
                device.rules = core.session.configuration.input.ruleNames(forDevice: device.name)
                return device
            }
            return line { ReplyEncoder.devices(list, focus: .some(core.session.focus), input: core.inputState, id: id, into: &$0) }
        case .reload:
            let result = core.reload()
            if result.ok { core.logger.notice("configuration reloaded: \(result.message)") } else { core.logger.error("reload refused: \(result.message)") }
            return line { ReplyEncoder.reloaded(result, id: id, into: &$0) }
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
