import NIOCore
import ScrollModel
import ScrollProtocol
import ScrollSession

/// Where connections are kept across a restart (systemd's file descriptor store,
/// docs/design.md §16). The daemon's POSIX side implements it; tests stand in for it.
package protocol ConnectionKeeper: AnyObject {
    /// Hands the connection's socket to the store as `client-N`: `descriptor` when the daemon
    /// has one for it already (the fan-out's duplicate: the same socket), else `channel`'s.
    func keep(_ channel: Channel, descriptor: Int32?, number: Int)
    /// Takes it out again (the connection closed): the store never holds dead connections.
    func forget(number: Int)
}

/// Whose settings a change of containers changed, for ``RestartStore/containersChanged(_:)``:
/// a container's settings are encoded again only when they may have changed.
enum ChangedSettings {
    /// None's: a pause, a resume, a removal, the focus.
    case unchanged
    /// This container's: a `configure` of it.
    case container(String)
    /// Any container's: a reload, a restore.
    case every
}

/// What a restart takes back (docs/design.md §16): the session's document in mapped memory and
/// the store its connections are kept in. The daemon calls in on its loop: at every publication
/// (one slot written in place, no system call) and after every change of containers,
/// subscriptions or observations (the document rewritten, in memory too, once per turn of the
/// loop).
package final class RestartStore {
    package let memory: SnapshotMemory
    /// Where the connections' sockets are kept.
    package let keeper: (any ConnectionKeeper)?
    /// The daemon whose session is kept (set when it takes the store).
    unowned var core: DaemonCore!
    /// Each container's name hash, by index, as the last document listed them.
    var nameHashes: [UInt32] = []
    /// The connections whose sockets are in the store, by number.
    var kept: Set<Int> = []
    /// Connections taken back and not yet resumed, with the requests to replay on them.
    var pending: [Int: [Operation]] = [:]
    /// The last publication before the restart, by container name (observations continue
    /// from the value it gave, not from null).
    var previous: [String: SnapshotMemory.Slot] = [:]
    /// The containers the taken-back document listed: a connection's subscription to one that
    /// is not there now lost its container in the restart (it hears `removed`), one to a name
    /// the document did not list was waiting for it.
    var listed: Set<String> = []
    /// Whether the taken-back session was refused: its connections are greeted anew.
    var sessionLost = false
    /// The document's containers as last encoded; nil: encode them anew.
    var containersDocument: [UInt8]?
    /// Each container's settings as last encoded, by name. A container's settings change only
    /// by a `configure` of it, a reload or a restore, and they are most of its part of the
    /// document (ten million row heights, written out, are megabytes): the others' are kept.
    var encodedSettings: [String: [UInt8]] = [:]
    /// The containers whose settings changed since the document was last written; nil: any
    /// container's may have.
    var settingsChanged: Set<String>? = nil
    /// Each connection's part of the document as last encoded.
    var connectionDocuments = ConnectionDocuments()
    /// What changed since the document was last written: open connections' parts, closed
    /// connections (by number), or everything (`wholeSessionChanged`). The document is written once per turn of the loop,
    /// after whatever it is running now, however many changes that made.
    var changedConnections: [Int: Client] = [:]
    var closedConnections: Set<Int> = []
    var wholeSessionChanged = false
    var writePending = false

    package init(memory: SnapshotMemory, connections: (any ConnectionKeeper)?) {
        self.memory = memory
        keeper = connections
    }

    /// A publication: its container's slot, written in place.
    @inline(__always)
    func published(_ publication: Publication) {
        let index = publication.container
        guard index < nameHashes.count else { return }
        let state = publication.state
        memory.write(
            SnapshotMemory.Slot(seq: publication.seq, state: state, nameHash: nameHashes[index]),
            at: index
        )
    }

    /// Notes a change of containers, connections, subscriptions or observations for the
    /// session's document (never a publication: those write their slot in place).
    ///
    /// The document is written once, after the work the loop is doing now (a burst of requests,
    /// a thousand clients connecting) — in the same turn of the loop, before it waits again —
    /// not once per change: each write copies the whole document, which with a thousand
    /// connections made every change cost the loop O(connections). `settings` says whose
    /// settings to encode again.
    func containersChanged(_ settings: ChangedSettings) {
        switch settings {
        case .unchanged: break
        case .container(let name): settingsChanged?.insert(name)
        case .every: settingsChanged = nil
        }
        wholeSessionChanged = true
        scheduleWrite()
    }

    /// Only `client`'s subscriptions or observations changed: only its part of the document is
    /// encoded anew.
    func connectionChanged(_ client: Client) {
        changedConnections[client.number] = client
        scheduleWrite()
    }

    /// Connection `number` closed leaving nothing behind: its part leaves the document.
    func connectionClosed(_ number: Int) {
        changedConnections[number] = nil
        closedConnections.insert(number)
        scheduleWrite()
    }

    /// Writes the whole session's document now, not at the end of the loop's turn: at start,
    /// so the store holds this process' session before anything else runs.
    func writeWholeSession() {
        settingsChanged = nil
        wholeSessionChanged = true
        write()
    }

    private func scheduleWrite() {
        guard !writePending else { return }
        writePending = true
        core.eventLoop.assumeIsolated().execute { [self] in write() }
    }

    /// Writes the session's document (and, after a change of containers, every container's
    /// slot) to the 
    private func write() {
        writePending = false
        let whole = wholeSessionChanged
        let connections = core.connections
        guard whole || !changedConnections.isEmpty || !closedConnections.isEmpty else { return }
        if whole {
            containersDocument = nil
            connectionDocuments.removeAll()
            for client in connections.inOrder {
                connectionDocuments.set(client.number, storedConnection(client).encoded())
            }
        } else {
            for number in closedConnections { connectionDocuments.set(number, nil) }
            for (number, client) in changedConnections {
                let open = connections.isOpen(client)
                connectionDocuments.set(number, open ? storedConnection(client).encoded() : nil)
            }
        }
        wholeSessionChanged = false
        changedConnections.removeAll(keepingCapacity: true)
        closedConnections.removeAll(keepingCapacity: true)
        let containers: [UInt8]
        if let cached = containersDocument {
            containers = cached
        } else {
            containers = encodedContainers()
            containersDocument = containers
            nameHashes = core.session.names.map(SnapshotMemory.nameHash)
        }
        let connectionsDocument = connectionDocuments.joined
        let document = RestartSnapshot.document(
            instance: core.instance, nextClientNumber: connections.nextNumber, focus: core.session.focus, focusedBy: connections.focusedBy,
            containers: containers, connections: connectionsDocument
        )
        // The slots change with the containers (and are written anew when the memory grows,
        // which formats it); a connection's change leaves them as its publications wrote them.
        var slots: [SnapshotMemory.Slot] = []
        if whole || document.count + 8 > memory.documentCapacity {
            for (index, slot) in core.session.engine.slots.enumerated() {
                let state = slot.container.state
                slots.append(SnapshotMemory.Slot(seq: slot.seq, state: state, nameHash: nameHashes[index]))
            }
        }
        if !memory.write(document: document, slots: slots) {
            core.logger.error("the session no longer fits in its store: a restart now would lose what changed since")
        }
    }

    /// The document's containers, each container's settings encoded anew only when they changed.
    private func encodedContainers() -> [UInt8] {
        var bytes: [UInt8] = []
        var settingsNow: [String: [UInt8]] = [:]
        settingsNow.reserveCapacity(core.session.engine.slots.count)
        for (index, slot) in core.session.engine.slots.enumerated() {
            let name = slot.container.name
            let kept = settingsChanged?.contains(name) == false ? encodedSettings[name] : nil
            let settings = kept ?? RestartSnapshot.Container.encoded(core.session.settings(ofContainer: name))
            settingsNow[name] = settings
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            storedContainer(slot).encode(into: &bytes, settings: settings)
        }
        encodedSettings = settingsNow
        settingsChanged = []
        return bytes
    }

    /// A container as the document keeps it; its settings are encoded apart (``encodedContainers()``).
    private func storedContainer(_ slot: ScrollEngine.Slot) -> RestartSnapshot.Container {
        let leases = core.publisher[slot.id]
        let state = slot.container.state
        return RestartSnapshot.Container(
            name: slot.container.name, settings: [], seq: slot.seq,
            offset: state.contentOffset, paused: slot.isPaused,
            pausedBy: leases?.pausedBy ?? [], owner: leases?.owner,
            refreshing: state.refreshing ?? false, headerHeight: state.header?.height
        )
    }

    /// A connection's subscriptions and observations, as the requests that make them.
    private func storedConnection(_ client: Client) -> RestartSnapshot.Connection {
        var requests: [Operation] = []
        for subscription in client.subscriptions {
            let rate = subscription.interval.map { 1e9 / Double($0.nanoseconds) }
            requests.append(.subscribe(container: subscription.container.name, rate: subscription.rate ?? rate, wait: subscription.waits))
        }
        // The connection's own, in the order they were made: a walk of every container's
        // observers per connection made each write cost connections × containers.
        for observer in client.observers.values {
            requests.append(.observe(container: observer.container.name, observation: observer.observation, id: observer.id, wait: observer.waits))
        }
        // Those still waiting for their containers wait again (docs/design.md §20).
        for waiter in client.waiters.inOrder {
            switch waiter.kind {
            case .subscription(let rate): requests.append(.subscribe(container: waiter.name, rate: rate, wait: true))
            case let .observation(observation, id): requests.append(.observe(container: waiter.name, observation: observation, id: id, wait: true))
            }
        }
        return RestartSnapshot.Connection(number: client.number, requests: requests)
    }

    /// A connection was accepted: its socket goes to the store (one taken back is there already).
    ///
    /// The document does not change: a connection that subscribes or observes nothing has
    /// nothing to take back but its socket.
    func connectionOpened(_ client: Client) {
        guard kept.insert(client.number).inserted else { return }
        keeper?.keep(client.channel, descriptor: client.socket?.fd, number: client.number)
    }

    /// A connection closed: its socket leaves the 
    func connectionEnded(_ client: Client) {
        guard kept.remove(client.number) != nil else { return }
        keeper?.forget(number: client.number)
    }
}
