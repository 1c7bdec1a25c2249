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

    /// The replay as the earlier version printed it, which had no scroll indicators
    /// (docs/design.md §22): without their key, and without the states that only hide them (the
    /// state before it, but for `seq`, `t` and the indicators, and the indicators showing there),
    /// the others numbered on from the first. Everything else must be as it was.
    static func withoutIndicators(_ output: String) throws -> String {
        let key = try Regex(#","indicators":\{("[xy]":\{[^}]*\},?)+\}"#)
        let clock = try Regex(#""seq":[0-9]+,"t":[0-9]+,"#)
        var kept: [String] = []
        var previous: (line: Substring, bare: String)?
        for line in output.split(separator: "\n") {
            let bare = String(line).replacing(key, with: "").replacing(clock, with: "")
            let hides = line.contains(#""visible":false"#) && previous.map { $0.line.contains(#""visible":true"#) && $0.bare == bare } ?? false
            previous = (line, bare)
            if !hides { kept.append(String(line).replacing(key, with: "")) }
        }
        guard let first = kept.first?.firstMatch(of: try Regex(#""seq":([0-9]+)"#)), let start = Int(first.output[1].substring ?? "") else { return "" }
        return kept.enumerated().map { index, line in
            line.replacing(try! Regex(#""seq":[0-9]+"#), with: "\"seq\":\(start + index)", maxReplacements: 1)
        }.joined(separator: "\n") + "\n"
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
        #expect(try Self.withoutIndicators(String(decoding: result.stdout, as: UTF8.self)) == expected)
    }

    /// Without it the recording's own first line says what the containers were: the same states.
    /// (The earlier version printed one more state first, under its built-in defaults, which no
    /// live subscriber received, and numbered the rest one higher.)
    @Test(arguments: ["main", "side"])
    func theRecordingCarriesItsConfiguration(container: String) throws {
        let result = try Scrolld.run(["replay", Self.log, "--container", container])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try Self.withoutIndicators(String(decoding: result.stdout, as: UTF8.self)) == (try Self.expected(container)))
    }
}
