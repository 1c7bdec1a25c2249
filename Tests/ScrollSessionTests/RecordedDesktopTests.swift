import ScrollConfig
import ScrollLog
import ScrollModel
import ScrollProtocol
import ScrollSession
import Testing

/// docs/event-log.md, `desktop`: the desktop's settings written as they are put in force, in a
/// line of their own and in a reload line, and read back as the same command.
@Suite("Recorded desktop settings")
struct RecordedDesktopTests {
    static let desktop = DesktopInput(
        rules: [
            .init(devices: .touchpads, naturalScrolling: true, scrollFactor: 1.5, source: "desktop:kde"),
            .init(devices: .named("Logitech G Pro"), naturalScrolling: false, source: "desktop:sway"),
        ],
        reducedMotion: .init(true, source: "desktop:kde")
    )
    static let json = #"{"rules":[{"devices":"touchpads","natural_scrolling":true,"scroll_factor":1.5,"source":"desktop:kde"},{"devices":{"name":"Logitech G Pro"},"natural_scrolling":false,"source":"desktop:sway"}],"reduced_motion":{"value":true,"source":"desktop:kde"}}"#

    @Test func aDesktopChangeIsWrittenAndReadBackAsTheSameCommand() throws {
        var session = try Session(configuration: .defaults, at: 0)
        session.startRecording(SessionRecorder(header: EventLogHeader(created: "2026-11-27T00:00:00Z", source: "test")), at: 0)
        _ = session.takeRecordedLines()
        // Reduced motion changes main's physics: its state is published.
        #expect(try session.apply(.desktop(Self.desktop, at: 10)).map(\.seq) == [1])
        let text = String(decoding: session.takeRecordedLines(), as: UTF8.self)
        #expect(text == #"{"t":10,"type":"desktop","desktop":\#(Self.json)}"# + "\n")
        guard case let .desktop(read, time) = try Command(recorded: RecordedCommandTests.line(String(text.dropLast()))) else {
            Issue.record("not a desktop command")
            return
        }
        #expect(read == Self.desktop && time == 10)
        #expect(session.engine.slots[0].container.configuration.physics.reducedMotion)
    }

    /// A reload keeps the desktop's settings, and its line carries them: a recording that
    /// starts then opens with them.
    @Test func aReloadLineCarriesTheDesktopInForce() throws {
        var session = try Session(configuration: .defaults, at: 0)
        _ = try session.apply(.desktop(Self.desktop, at: 5))
        session.startRecording(SessionRecorder(header: EventLogHeader(created: "2026-11-27T00:00:00Z", source: "test")), at: 10)
        _ = try session.apply(.reload(.defaults, client: 0, at: 20))
        #expect(session.configuration.desktop == Self.desktop)
        let lines = String(decoding: session.takeRecordedLines(), as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.dropFirst().allSatisfy { $0.hasSuffix(#","desktop":\#(Self.json)}"#) })
        guard case let .reload(configuration, _, _, initial) = try Command(recorded: RecordedCommandTests.line(String(lines[1])), atStart: true) else {
            Issue.record("not a reload")
            return
        }
        #expect(initial && configuration.desktop == Self.desktop)
        // A reload line without one: no desktop settings then.
        guard case let .reload(plain, _, _, _) = try Command(recorded: RecordedCommandTests.line(#"{"t":5,"type":"reload","client":0,"configuration":{}}"#)) else {
            Issue.record("not a reload")
            return
        }
        #expect(plain.desktop == DesktopInput())
    }

    @Test func badDesktopLinesAreRefusedSayingWhatIsWrong() throws {
        let cases: [(String, String)] = [
            (#"{"t":1,"type":"desktop"}"#, #"needs its "desktop" object"#),
            (#"{"t":1,"type":"desktop","desktop":{}}"#, #"need a "rules" array"#),
            (#"{"t":1,"type":"desktop","desktop":{"rules":[{"devices":"keyboards","source":"x"}]}}"#, #""devices" must be"#),
            (#"{"t":1,"type":"desktop","desktop":{"rules":[{"devices":"mice","scroll_factor":0,"source":"x"}]}}"#, #""scroll_factor" must be a number in 0.01...100.0"#),
            (#"{"t":1,"type":"desktop","desktop":{"rules":[{"devices":"mice"}]}}"#, #"needs its "source""#),
            (#"{"t":1,"type":"desktop","desktop":{"rules":[],"reduced_motion":{"value":1,"source":"x"}}}"#, #"needs a boolean "value""#),
        ]
        for (line, message) in cases {
            do {
                _ = try Command(recorded: RecordedCommandTests.line(line))
                Issue.record("accepted: \(line)")
            } catch {
                #expect("\(error)".contains(message), "\(error)")
            }
        }
    }
}
