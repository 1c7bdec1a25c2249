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

/// The session kept for a restart (docs/design.md §16): the mapped memory it is written to and the
/// store its connections are kept in. The daemon calls in on its loop: at every publication
/// (one slot written in place, no system call) and after every change of containers,
/// subscriptions or observations (the document rewritten, in memory too).
package final class SessionStore {
    package let memory: SnapshotMemory
    package let connections: (any ConnectionKeeper)?
    /// Each container's name hash, by index, as the last document listed them.
    var nameHashes: [UInt32] = []
    /// The connections whose sockets are in the store, by number.
    var kept: Set<Int> = []
    /// Connections taken back and not yet resumed, with the requests to replay on them.
    var pending: [Int: [Operation]] = [:]
    /// The last publication before the restart, by container name (observations continue
    /// from the value it gave, not from null).
    var previous: [String: SnapshotMemory.Slot] = [:]
    /// Whether the taken-back session was refused: its connections are greeted anew.
    var sessionLost = false
    /// The document's containers as last encoded; nil: encode them anew.
    var containersDocument: [UInt8]?
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
        self.connections = connections
    }

    /// A publication: its container's slot, written in place.
    @inline(__always)
    func published(_ publication: Publication) {
        let index = publication.container
        guard index < nameHashes.count else { return }
        let state = publication.state
        memory.write(
            SnapshotMemory.Slot(seq: publication.seq, time: state.time, offset: state.contentOffset, velocity: state.velocity, phase: state.phase, nameHash: nameHashes[index]),
            at: index
        )
    }
}
