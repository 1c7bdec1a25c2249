import ScrollLog
import ScrollModel
import ScrollProtocol
import ScrollSession
import Testing

/// A restart's `restore` with docs/design.md §21's state (docs/event-log.md): a running refresh
/// and an `enterAlways` header's height are taken back, recorded, and replayed the same.
@Suite("Restore: a refresh and a quick-return header")
struct RestoredAppBarsTests {
    static let feed: [ConfigureSetting] = [
        ConfigureSetting(key: "containerSize", value: .object([("width", .double(400)), ("height", .double(300))])),
        ConfigureSetting(key: "rows", value: .object([("count", .integer(30)), ("height", .double(50))])),
        ConfigureSetting(key: "refresh", value: .object([("threshold", .double(80)), ("height", .double(60))])),
    ]
    static let bar: [ConfigureSetting] = [
        ConfigureSetting(key: "containerSize", value: .object([("width", .double(400)), ("height", .double(300))])),
        ConfigureSetting(key: "contentSize", value: .object([("width", .double(400)), ("height", .double(5000))])),
        ConfigureSetting(key: "header", value: .object([
            ("min_height", .double(20)), ("max_height", .double(100)), ("mode", .string("enterAlways")), ("snap", .bool(false)),
        ])),
    ]

    static func restoration() -> Restoration {
        Restoration(containers: [
            RestoredContainer(name: "feed", settings: feed, seq: 5, offset: Point(x: 0, y: -60), paused: false, refreshing: true),
            // Collapsed at 1970 would be 20 px; taken back at 50 (a height P(y) = 20 ≤ 50 ≤ 100).
            RestoredContainer(name: "bar", settings: bar, seq: 9, offset: Point(x: 0, y: 1970), paused: false, headerHeight: 50),
        ], focus: nil)
    }

    @Test func takenBackAsTheyWereAndReplayedTheSame() throws {
        var live = try Session(configuration: .defaults, at: 0)
        live.startRecording(SessionRecorder(header: EventLogHeader(created: "2026-11-27T00:00:00Z", source: "test")), at: 0)
        let published = try live.apply(.restore(Self.restoration(), at: 40))
        let feed = try #require(published.last { $0.state.refreshing != nil })
        #expect(feed.state.refreshing == true && feed.state.contentOffset.y == -60 && feed.seq == 6)
        let bar = try #require(published.last { $0.state.header != nil })
        #expect(bar.state.contentOffset.y == 1970 && bar.state.header == HeaderState(height: 50, progress: 0.625))

        // The recorded line carries both, and a replay of it takes them back the same.
        let lines = String(decoding: live.takeRecordedLines(), as: UTF8.self).split(separator: "\n")
        let restore = try #require(lines.last)
        #expect(restore.contains(#""paused":false,"refreshing":true,"settings":"#))
        #expect(restore.contains(#""paused":false,"headerHeight":50.0,"settings":"#))
        var replay = try Session(configuration: .defaults, at: 0)
        let replayed = try replay.apply(try Command(recorded: RecordedCommandTests.line(String(restore))))
        #expect(replayed.map(\.state) == published.map(\.state))
        #expect(replayed.map(\.seq) == published.map(\.seq))

        // A restore recorded before these members reads as neither: the offset is clamped to lo.
        let old = String(restore).replacingOccurrences(of: #""refreshing":true,"#, with: "")
        var older = try Session(configuration: .defaults, at: 0)
        let taken = try older.apply(try Command(recorded: RecordedCommandTests.line(old)))
        #expect(taken.last { $0.state.refreshing != nil }?.state.contentOffset.y == 0)
    }

    /// A long list scrolled past 10⁹ px (10⁷ rows of 500 px reach 5·10⁹) comes back where it
    /// was: the store keeps offsets up to ``Limits/stateMagnitude``, and the restore took back
    /// only those within a request's 10⁹ (the list came back at its top).
    @Test func aListScrolledPastAMillionScreensComesBackWhereItWas() throws {
        let long: [ConfigureSetting] = [
            ConfigureSetting(key: "containerSize", value: .object([("width", .double(400)), ("height", .double(800))])),
            ConfigureSetting(key: "rows", value: .object([("count", .integer(10_000_000)), ("height", .double(500))])),
        ]
        let far = 4_321_000_000.0
        var session = try Session(configuration: .defaults, at: 0)
        let published = try session.apply(.restore(Restoration(containers: [
            RestoredContainer(name: "long", settings: long, seq: 3, offset: Point(x: 0, y: far), paused: false),
            // Past the end of its content: clamped to the end, as a scrollTo would be.
            RestoredContainer(name: "beyond", settings: long, seq: 3, offset: Point(x: 0, y: 9e16), paused: false),
        ], focus: nil), at: 40))
        // Each published once, with the seq after its stored one, in the order restored.
        let offsets = published.filter { $0.seq == 4 }.map(\.state.contentOffset.y)
        #expect(offsets == [far, 5e9 - 800])
    }
}
