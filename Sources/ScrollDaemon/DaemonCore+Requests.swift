import NIOCore
import ScrollConfig
import ScrollInput
import ScrollLog
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
    static let features = ["positions", "observe", "routing", "record-requests", "session", "restore"]

    func welcome() -> ByteBuffer {
        line { ReplyEncoder.welcome(server: serverName, containers: containerNames, features: Self.features, instance: instance, focus: .some(session.focus), into: &$0) }
    }

    /// A peer that may not connect: told why, then disconnected.
    /// Notes a refused connection, logged once per cause until one is accepted again (a flood
    /// of refused connections must not flood the journal too).
    func noteRefusal(_ error: ProtocolError) {
        guard lastRefusal != error.message else { return }
        lastRefusal = error.message
        logger.warning("refused a connection: \(error.message)")
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

    func containerIndex(_ name: String, id: RequestID?) throws(ProtocolError) -> Int {
        guard let index = session.index(of: name) else { throw .unknownContainer(name, id: id) }
        return index
    }

    func perform(_ request: Request, for client: Client) throws(ProtocolError) -> ByteBuffer {
        let id = request.id
        switch request.operation {
        case .ping:
            return line { ReplyEncoder.pong(id: id, into: &$0) }
        case let .subscribe(name, rate):
            let index = try containerIndex(name, id: id)
            subscribe(client, container: index, rate: rate)
            let state = currentState(index)
            return line { ReplyEncoder.state(state, container: name, seq: session.seqs[index], paused: session.paused[index], id: id, into: &$0) }
        case .unsubscribe(let name):
            let index = try name.map { (name: String) throws(ProtocolError) in try containerIndex(name, id: id) }
            unsubscribe(client, container: index)
            return line { ReplyEncoder.ok(id: id, into: &$0) }
        case .get(let name):
            let index = try containerIndex(name, id: id)
            let state = currentState(index)
            return line { ReplyEncoder.state(state, container: name, seq: session.seqs[index], paused: session.paused[index], id: id, into: &$0) }
        case let .observe(name, observation, observationID):
            let index = try containerIndex(name, id: id)
            try observe(client, container: index, observation: observation, id: observationID)
            return ByteBuffer()
        case .unobserve(let observationID):
            try unobserve(client, id: observationID)
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
}
