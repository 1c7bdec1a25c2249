import NIOCore
import ScrollModel
import ScrollProtocol
import ScrollSession

/// docs/design.md §16 on the daemon's side: the store is told what changed (``RestartStore``
/// keeps the document), and a restarted daemon takes its session back.
extension DaemonCore {
    /// The containers changed (and with them, possibly, every connection's followers).
    func sessionChanged() { store?.containersChanged() }

    /// Only `client`'s subscriptions or observations changed.
    func sessionChanged(connection client: Client) { store?.connectionChanged(client) }

    /// Connection `number` closed leaving nothing behind.
    func sessionChanged(closed number: Int) { store?.connectionClosed(number) }

    /// Puts `store` in charge of keeping the session; `taken` is what a previous process of it
    /// left there (nil: nothing, or it was refused), and `connections` the numbers of the
    /// connections whose sockets came back with it.
    package func keep(in store: RestartStore, restoring taken: (snapshot: RestartSnapshot, slots: [SnapshotMemory.Slot?])?, connections numbers: [Int]) {
        self.store = store
        store.core = self
        store.takeBack(taken, connections: numbers)
    }
}
