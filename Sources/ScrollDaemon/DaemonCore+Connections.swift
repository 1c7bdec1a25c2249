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
        client.isConnected = false
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
                requests.undo(forConnection: client.number)
                statusChanged()
            }
            return
        }
        requests.undo(forConnection: client.number)
        statusChanged()
    }
}
