import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The harness' own tools, where a test leans on them to tell its failures apart.
@Suite("Test harness")
struct HarnessTests {
    /// `SocketPeers` finds the connections this process holds to a daemon (what OverloadTests
    /// names and closes when the daemon keeps a connection after the test closed its own), and
    /// none once they are closed.
    @Test func socketPeersNamesTheConnectionsThisProcessHolds() throws {
        let daemon = try DaemonProcess()
        let first = try LineClient(path: daemon.socketPath)
        let second = try LineClient(path: daemon.socketPath)
        _ = first.readJSON()
        _ = second.readJSON()
        #expect(waitUntil(timeout: 30) { daemon.probe.clientConnections(on: daemon.socketPath) == 2 })
        let held = SocketPeers.held(by: getpid(), connectedTo: daemon.socketPath)
        #expect(Set(held) == [first.fd, second.fd], "\(held)")
        first.close()
        second.close()
        #expect(waitUntil(timeout: 30) { SocketPeers.held(by: getpid(), connectedTo: daemon.socketPath).isEmpty })
    }
}
