import Foundation
import ScrollConfig
import ScrollLog
import ScrollModel
import ScrollProtocol
import ScrollSession
import Testing

/// docs/design.md §17 as a property: whatever happens live — input from two devices, requests
/// from several connections that create, nest, move, pause, focus, edit and remove containers,
/// reloads, connections closing with what they own — a replay of the recording prints, for
/// every container, exactly the state lines a subscriber that took every state received live,
/// byte for byte.
@Suite("Live = replay")
struct LiveEqualsReplayTests {
    static let configuration = """
        [containers.main]
        containerSize = { width = 400, height = 600 }
        contentSize = { width = 400, height = 3000 }
        header = { min_height = 40, max_height = 120 }
        touch_frame = { x = 0, y = 0, width = 1, height = 1 }
        refresh = { threshold = 60, height = 45 }

        [containers.list]
        parent = "main"
        containerSize = { width = 400, height = 300 }
        rows = { count = 50, height = 44, sticky = [0, 10, 20, 30] }
        header = { min_height = 20, max_height = 80, mode = "enterAlways" }
        refresh = { threshold = 70, height = 70 }
        touch_frame = { x = 0, y = 0.5, width = 1, height = 0.5 }
        """

    /// The streams are drawn from a fixed seed, so every run checks the same thousand and a
    /// failure reproduces; `SCROLLD_PROPERTY_SEED=N` draws another thousand. A failing stream
    /// is shrunk to the shortest that still fails, and that is what the failure shows.
    @Test func everyRecordedStreamReplaysToWhatSubscribersReceived() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("live-replay-\(getpid()).toml")
        try Self.configuration.write(to: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: file) }
        let seed = ProcessInfo.processInfo.environment["SCROLLD_PROPERTY_SEED"].flatMap(UInt64.init) ?? 30
        var random = SplitMix64(seed: seed)
        let tally = Tally()
        for stream in 0..<1000 {
            let seeds = (0..<Int.random(in: 1...60, using: &random)).map { _ in Int.random(in: 0...Int(Int32.max), using: &random) }
            guard let failure = try Self.mismatch(seeds, configurationFile: file.path, tally: tally) else { continue }
            let shortest = try Shrinker.shortest(seeds) { try Self.mismatch($0, configurationFile: file.path, tally: nil) != nil }
            let shown = try Self.mismatch(shortest, configurationFile: file.path, tally: nil) ?? failure
            Issue.record("""
                stream \(stream) of seed \(seed) replays differently; shrunk from \(seeds.count) steps to \(shortest.count): \(shortest)
                \(CommandStream(seeds: shortest))
                \(shown)
                """)
            return
        }
        // Not vacuous: the streams moved containers, made and removed them, and recorded
        // requests of every kind.
        #expect(tally.states > 100_000)
        #expect(tally.containers > 2_000)
        #expect(tally.requestKinds.isSuperset(of: ["configure", "scrollTo", "scrollBy", "pause", "resume", "focus", "remove", "beginRefresh", "endRefresh"]))
        // App bars (docs/design.md §21) were on show: refreshes ran and sticky rows were pinned.
        #expect(tally.refreshingStates > 1_000)
        #expect(tally.stickyStates > 1_000)
        #expect(tally.reloads > 50)
        #expect(tally.desktops > 50)
        #expect(tally.touches > 2_000)
        #expect(tally.touchFrames > 50)
    }

    /// How the replay of `seeds`' stream differs from what went live (nil: it does not).
    static func mismatch(_ seeds: [Int], configurationFile: String, tally: Tally?) throws -> String? {
        let live = try CommandStream(seeds: seeds).runLive(configurationFile: configurationFile)
        tally?.count(live)
        for (name, states) in live.states.sorted(by: { $0.key < $1.key }) {
            let replayed = try replay(live.recording, container: name, after: live.firstSeq[name] ?? 0)
            guard replayed != states else { continue }
            let index = zip(replayed, states).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(replayed.count, states.count)
            return """
                container \(name): \(states.count) states live, \(replayed.count) replayed; first difference at \(index):
                  live:     \(index < states.count ? states[index] : "(none)")
                  replayed: \(index < replayed.count ? replayed[index] : "(none)")
                """
        }
        return nil
    }

    /// The states of `container` that `scrolld replay` prints for `recording`, with a `seq`
    /// past `firstSeq` (what the live subscriber had when it subscribed).
    static func replay(_ recording: [UInt8], container: String, after firstSeq: Int) throws -> [String] {
        var replayer = try Replayer(container: container, configuration: .defaults, mode: .everyState, sink: LineSink(container: container))
        var parser = EventLogParser()
        var number = 0
        for line in recording.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            number += 1
            switch try parser.parse(line: line, lineNumber: number) {
            case .event(let event): replayer.feed(event)
            case .request(let recorded): try replayer.feed(recorded)
            case .warning(let warning): Issue.record("recording line \(number): \(warning)")
            case .header, .skip: break
            }
        }
        replayer.finish()
        return replayer.sink.lines.filter { $0.seq > firstSeq }.map(\.text)
    }
}

/// What the streams of one run did, altogether.
final class Tally {
    var states = 0
    var containers = 0
    var reloads = 0
    /// `desktop` lines: the desktop's settings changed (docs/design.md §23).
    var desktops = 0
    var requestKinds: Set<String> = []
    /// Touch lines recorded (docs/design.md §25), and configure requests giving a touch frame.
    var touches = 0
    var touchFrames = 0
    /// States saying a refresh runs, and states with a pinned sticky row (docs/design.md §21).
    var refreshingStates = 0
    var stickyStates = 0

    func count(_ live: CommandStream.Live) {
        states += live.states.values.map(\.count).reduce(0, +)
        containers += live.states.count
        for line in live.states.values.joined() {
            if line.contains(#""refreshing":true"#) { refreshingStates += 1 }
            if line.contains(#""stickyRow":{"#) { stickyStates += 1 }
        }
        let text = String(decoding: live.recording, as: UTF8.self)
        for (number, line) in text.split(separator: "\n").enumerated() {
            // Line 2 is the configuration the recording opens with.
            if number > 1, line.contains(#""type":"reload""#) { reloads += 1 }
            if line.contains(#""type":"desktop""#) { desktops += 1 }
            if line.contains(#""type":"touch_"#) { touches += 1 }
            if line.contains(#""type":"request""#), line.contains(#""touch_frame""#) { touchFrames += 1 }
            guard let range = line.range(of: #""request":{"op":""#) else { continue }
            requestKinds.insert(String(line[range.upperBound...].prefix { $0 != "\"" }))
        }
    }
}

/// Encodes a replay's states as the daemon encodes them for a subscriber.
struct LineSink: ReplaySink {
    let container: String
    var encoder = StateEncoder()
    var lines: [(seq: Int, text: String)] = []

    mutating func publish(_ state: ScrollState, seq: Int?, cause: ScrollEngine.Cause?, paused: Bool) {
        var bytes: [UInt8] = []
        encoder.encode(state, container: container, seq: seq ?? 0, paused: paused, into: &bytes)
        lines.append((seq ?? 0, String(decoding: bytes, as: UTF8.self)))
    }

    mutating func warning(_ message: String) {
        Issue.record("replay: \(message)")
    }

    mutating func flush() {}
}
