import Foundation
import Testing

/// A recording made by an earlier version — before reloads and restores had recording lines of
/// their own, when they were written as requests of client 0 — replays to exactly what that
/// version's `scrolld replay` printed (docs/event-log.md, "Recorded sessions").
@Suite("Recordings of earlier versions")
struct LegacyRecordingTests {
    static let fixtures = Scrolld.packageRoot.appendingPathComponent("Tests/fixtures/recorded-session")
    static let log = fixtures.appendingPathComponent("before-command-lines.scrolllog").path
    static let configuration = fixtures.appendingPathComponent("config.toml").path

    static func expected(_ container: String) throws -> String {
        try String(contentsOf: fixtures.appendingPathComponent("\(container).jsonl"), encoding: .utf8)
    }

    /// Under the configuration the daemon ran with, as that version printed it.
    @Test(arguments: ["main", "side"])
    func anEarlierRecordingReplaysByteForByteAsItDidThen(container: String) throws {
        let result = try Scrolld.run(["replay", Self.log, "--config", Self.configuration, "--container", container])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr.isEmpty, "\(result.stderr)")
        // Hundreds of states: a pause, a spring, rows inserted, a focus, a reload, a removal.
        let expected = try Self.expected(container)
        #expect(expected.split(separator: "\n").count > 200)
        #expect(String(decoding: result.stdout, as: UTF8.self) == expected)
    }

    /// Without it the recording's own first line says what the containers were: the same states.
    /// (The earlier version printed one more state first, under its built-in defaults, which no
    /// live subscriber received, and numbered the rest one higher.)
    @Test(arguments: ["main", "side"])
    func theRecordingCarriesItsConfiguration(container: String) throws {
        let result = try Scrolld.run(["replay", Self.log, "--container", container])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(String(decoding: result.stdout, as: UTF8.self) == (try Self.expected(container)))
    }
}
