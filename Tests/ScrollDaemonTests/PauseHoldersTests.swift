import ScrollDaemon
import Testing

/// docs/design.md §19: a container paused by several connections stays paused until the last
/// of them closes; a `resume` from anyone resumes it.
@Suite("Pauses held by several connections")
struct PauseHoldersTests {
    static func paused(_ connection: Connection) throws -> Bool? {
        try connection.request(#"{"op":"get","container":"main","id":9}"#)?["paused"] as? Bool
    }

    @Test func theContainerResumesWhenTheLastConnectionThatPausedItCloses() throws {
        let daemon = try EmbeddedDaemon()
        let first = try daemon.connect(), second = try daemon.connect(), watcher = try daemon.connect()
        #expect(try first.request(#"{"op":"pause","container":"main","id":1}"#)?["type"] as? String == "ok")
        #expect(try second.request(#"{"op":"pause","container":"main","id":1}"#)?["type"] as? String == "ok")
        #expect(try Self.paused(watcher) == true)
        // The later pauser closes: the earlier one's pause still holds the container.
        try second.channel.close().wait()
        #expect(try Self.paused(watcher) == true)
        try first.channel.close().wait()
        #expect(try Self.paused(watcher) == nil)
    }

    @Test func aResumeFromAnyoneResumesItAndTheHoldersCloseWithoutEffect() throws {
        let daemon = try EmbeddedDaemon()
        let first = try daemon.connect(), second = try daemon.connect(), watcher = try daemon.connect()
        #expect(try first.request(#"{"op":"pause","container":"main","id":1}"#)?["type"] as? String == "ok")
        #expect(try second.request(#"{"op":"pause","container":"main","id":1}"#)?["type"] as? String == "ok")
        #expect(try watcher.request(#"{"op":"resume","container":"main","id":1}"#)?["type"] as? String == "ok")
        #expect(try Self.paused(watcher) == nil)
        // Paused again by the watcher alone: the earlier holders' closes leave it paused.
        #expect(try watcher.request(#"{"op":"pause","container":"main","id":2}"#)?["type"] as? String == "ok")
        try first.channel.close().wait()
        try second.channel.close().wait()
        #expect(try Self.paused(watcher) == true)
    }
}
