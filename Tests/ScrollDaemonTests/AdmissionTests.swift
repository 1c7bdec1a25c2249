import NIOCore
import NIOEmbedded
import ScrollConfig
import ScrollDaemon
import Testing

/// Who may connect, decided with the uid the POSIX edge reports for the daemon (the library
/// asks the system nothing itself): that uid, and those `daemon.allow_uids` lists.
@Suite struct AdmissionTests {
    /// An edge for a daemon running as uid 4242, its peer of uid `peer`.
    static func edge(peer: UInt32) -> ConnectionEdge {
        .standIn(PeerCredentials(pid: 7, uid: peer, gid: peer), daemonUID: 4242)
    }

    @Test func theDaemonsOwnUidIsWelcomedAndAnotherRefusedNamingBoth() throws {
        let daemon = try EmbeddedDaemon()
        #expect(try daemon.open(edge: Self.edge(peer: 4242)).next()?["type"] as? String == "welcome")
        let refused = try #require(try daemon.open(edge: Self.edge(peer: 1000)).next())
        #expect(refused["type"] as? String == "error")
        #expect(refused["code"] as? String == "forbidden")
        #expect(refused["message"] as? String == "uid 1000 may not connect (the daemon runs as uid 4242; see daemon.allow_uids)")
    }

    @Test func aUidThatAllowUidsListsIsWelcomed() throws {
        let daemon = try EmbeddedDaemon(configuration: Configuration.parse("[daemon]\nallow_uids = [1000]\n", file: "allow.toml"))
        #expect(try daemon.open(edge: Self.edge(peer: 1000)).next()?["type"] as? String == "welcome")
        #expect(try daemon.open(edge: Self.edge(peer: 1001)).next()?["code"] as? String == "forbidden")
    }
}
