import Foundation
import NIOCore
import ScrollConfig
import ScrollDaemon
import ScrollLog
import ScrollModel
import Testing

/// A reload that would change nothing costs nothing: the same text is not parsed again, and
/// while no command has changed a container since the last reload put that text in force,
/// the reload is answered with the same result and applies (and records) nothing. A client
/// pipelining reloads, each re-reading a file of 200 containers, held every other client
/// 1.8 s per 4 KiB of requests.
@Suite("Reloads that change nothing")
struct ReloadCoalescingTests {
    /// One file per test: the tests run at once.
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("reload-coalescing-\(UUID().uuidString).toml")
    static let text = "[containers.main]\ncontainerSize = { width = 320, height = 240 }\ncontentSize = { width = 320, height = 4000 }\n"

    private func daemon() throws -> (EmbeddedDaemon, MemoryRecording) {
        try Self.text.write(to: file, atomically: true, encoding: .utf8)
        let daemon = try EmbeddedDaemon(source: ConfigurationFileSource(explicitPath: file.path, environment: [:]))
        let recording = MemoryRecording()
        daemon.core.startRecording(to: recording, header: EventLogHeader(created: "2026-11-28T00:00:00Z", source: "test"))
        return (daemon, recording)
    }

    private func reloads(in recording: MemoryRecording) -> Int {
        recording.text.split(separator: "\n").filter { $0.contains(#""type":"reload""#) }.count - 1  // the first: the start
    }

    @Test func pipelinedReloadsOfTheSameTextApplyOnceAndAreEachAnswered() throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let (daemon, recording) = try daemon()
        let client = try daemon.connect()
        for id in 1...50 { try client.send(#"{"op":"reload","id":\#(id)}"#) }
        let replies = try client.drain()
        #expect(replies.count == 50)
        #expect(replies.allSatisfy { $0["type"] as? String == "reloaded" && $0["ok"] as? Bool == true })
        #expect(Set(replies.map { $0["message"] as? String }).count == 1)
        #expect(replies.map { $0["id"] as? Int } == Array(1...50))
        #expect(reloads(in: recording) == 1)
        // Scrolling does not change what a reload would do.
        #expect(try client.request(#"{"op":"scrollTo","container":"main","y":500,"id":51}"#)?["type"] as? String == "ok")
        daemon.input(.deviceAdded(name: "mouse", capabilities: [.wheel]))
        daemon.input(.wheel(v120: AxisValues(y: 120), degrees: nil))
        daemon.advance(1)
        _ = try client.drain()
        #expect(try client.request(#"{"op":"reload","id":52}"#)?["ok"] as? Bool == true)
        #expect(reloads(in: recording) == 2)
    }

    @Test func aReloadAfterAClientChangedAFileContainerPutsTheFileBack() throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let (daemon, recording) = try daemon()
        let client = try daemon.connect()
        #expect(try client.request(#"{"op":"reload","id":1}"#)?["ok"] as? Bool == true)
        #expect(try client.request(#"{"op":"configure","container":"main","containerSize":{"width":100,"height":100},"id":2}"#)?["type"] as? String == "ok")
        _ = try client.drain()
        #expect(try client.request(#"{"op":"reload","id":3}"#)?["ok"] as? Bool == true)
        #expect(reloads(in: recording) == 2)
        let state = try client.request(#"{"op":"get","container":"main","id":4}"#)
        #expect((state?["containerSize"] as? [String: Any])?["width"] as? Double == 320)
    }

    @Test func aChangedTextIsParsedAndAReturnToTheTextInForceChangesNothing() throws {
        defer { try? FileManager.default.removeItem(at: file) }
        let (daemon, recording) = try daemon()
        let client = try daemon.connect()
        #expect(try client.request(#"{"op":"reload","id":1}"#)?["ok"] as? Bool == true)
        try "[containers.main]\ncontainerSize = oops\n".write(to: file, atomically: true, encoding: .utf8)
        let refused = try client.request(#"{"op":"reload","id":2}"#)
        #expect(refused?["ok"] as? Bool == false)
        #expect(!daemon.core.reloadRepeated)
        // Refused again, with the same message, without parsing it again, and not logged again.
        #expect(try client.request(#"{"op":"reload","id":3}"#)?["message"] as? String == refused?["message"] as? String)
        #expect(daemon.core.reloadRepeated)
        try Self.text.write(to: file, atomically: true, encoding: .utf8)
        #expect(try client.request(#"{"op":"reload","id":4}"#)?["ok"] as? Bool == true)
        #expect(!daemon.core.reloadRepeated)
        #expect(reloads(in: recording) == 1)
        try (Self.text + "[containers.side]\n").write(to: file, atomically: true, encoding: .utf8)
        #expect(try client.request(#"{"op":"reload","id":5}"#)?["ok"] as? Bool == true)
        #expect(reloads(in: recording) == 2)
        #expect(try client.request(#"{"op":"get","container":"side","id":6}"#)?["type"] as? String == "state")
    }
}
