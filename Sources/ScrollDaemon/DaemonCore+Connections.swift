import NIOCore
import ScrollModel
import ScrollProtocol
import ScrollSession

/// docs/design.md §19 on the daemon's side: connections come and go, and what a closing
/// connection leaves behind is undone.
extension DaemonCore {
    func connected(_ client: Client) {
        connections.add(client)
        store?.connectionOpened(client)
        statusChanged()
        // `run --replay-start first-client`: the log plays from the first connection, after
        // its welcome, so a test or a demo sees everything move.
        if let replay = startsWithFirstClient {
            startsWithFirstClient = nil
            replay.start()
        }
    }

    func disconnected(_ client: Client) {
        publisher.forget(client)
        client.cancelAll()
        connections.remove(client)
        store?.connectionEnded(client)
        // A write that fails while states or observations are being handed out closes its
        // connection right there, inside that loop: what the connection leaves behind (an
        // owned container removed, a pause or focus undone) changes containers the loop is
        // walking, so it waits until the loop is done.
        if publisher.delivering {
            eventLoop.assumeIsolated().execute { [self] in
                undo(forConnection: client.number)
                statusChanged()
            }
            return
        }
        undo(forConnection: client.number)
        statusChanged()
    }

    /// What connection `number` left behind is undone (docs/design.md §19): the containers it
    /// owns are removed, its pauses resumed, its focus cleared — each as a request of that
    /// connection, so a recording replays it. Also for a connection that did not come back
    /// after a restart (docs/design.md §16).
    func undo(forConnection number: Int) {
        let now = eventLoop.timestamp
        let held = connections.leases(of: number, on: publisher.containers.values)
        let leftBehind = !held.owned.isEmpty || !held.paused.isEmpty || connections.focusedBy == number
        for container in held.owned {
            do {
                try request(.remove(container: container.name), from: number, at: now)
            } catch {
                logger.error("cannot remove \(container.name), owned by a closed connection: \(error.message)")
            }
        }
        // After the removals: a container both owned and paused is gone, unless its removal failed.
        for container in held.paused where publisher[container.id] != nil {
            container.pausedBy = nil
            _ = try? request(.resume(container: container.name), from: number, at: now)
        }
        if session.focus == nil { connections.focusedBy = nil }
        if connections.focusedBy == number { _ = try? request(.focus(container: nil), from: number, at: now) }
        finish()
        // The restart store: the containers changed only if the connection left something.
        if leftBehind { store?.containersChanged() } else { store?.connectionClosed(number) }
    }
}
