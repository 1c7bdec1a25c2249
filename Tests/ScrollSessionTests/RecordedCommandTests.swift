import ScrollConfig
import ScrollLog
import ScrollModel
import ScrollProtocol
import ScrollSession
import Testing

/// docs/event-log.md, "Recorded sessions": each kind of command has one line shape, and the
/// shapes of earlier versions still read as the same commands.
@Suite("Recorded commands")
struct RecordedCommandTests {
    static let header = #"{"format":"scrolld-events","version":1,"created":"2026-11-27T00:00:00Z","source":"test"}"#

    static func line(_ text: String) throws -> RecordedRequest {
        var parser = EventLogParser()
        _ = try parser.parse(line: Array(header.utf8), lineNumber: 1)
        guard case .request(let recorded) = try parser.parse(line: Array(text.utf8), lineNumber: 2) else {
            Issue.record("not a command line: \(text)")
            return RecordedRequest(time: 0, client: 0, json: [])
        }
        return recorded
    }

    static func session() throws -> Session {
        try Session(configuration: .defaults, at: 0)
    }

    @Test func aReloadLineAndItsEarlierSpellingAreOneCommand() throws {
        let configuration = #"{"daemon.frame_rate":60.0,"containers.main.containerSize":{"width":300.0,"height":200.0}}"#
        let new = try Command(recorded: Self.line(#"{"t":5,"type":"reload","client":3,"configuration":\#(configuration)}"#))
        let old = try Command(recorded: Self.line(#"{"t":5,"type":"request","client":3,"request":{"op":"reload","configuration":\#(configuration)}}"#))
        for command in [new, old] {
            guard case let .reload(read, client, time, initial) = command else {
                Issue.record("not a reload: \(command)")
                continue
            }
            #expect(client == 3 && time == 5 && !initial)
            #expect(read.daemon.frameRate == 60)
            var session = try Self.session()
            _ = try session.apply(command)
            #expect(session.engine.slots[0].container.configuration.containerSize == Size(width: 300, height: 200))
        }
    }

    @Test func theOpeningReloadOfARecordingPublishesNothing() throws {
        let line = try Self.line(#"{"t":5,"type":"reload","client":0,"configuration":{"containers.main.containerSize":{"width":300.0,"height":200.0}}}"#)
        var session = try Self.session()
        #expect(try session.apply(Command(recorded: line, atStart: true)).isEmpty)
        // Later, the same configuration put in force again changes nothing; another one publishes.
        var other = try Self.session()
        #expect(try other.apply(Command(recorded: line)).map(\.seq) == [1])
    }

    @Test func aRestoreLineAndItsEarlierSpellingAreOneCommand() throws {
        let members = #""containers":[{"container":"list","seq":7,"x":0.0,"y":120.5,"paused":true,"settings":{"containerSize":{"width":400.0,"height":600.0}}}],"focus":"list""#
        let new = try Command(recorded: Self.line(#"{"t":9,"type":"restore",\#(members)}"#))
        let old = try Command(recorded: Self.line(#"{"t":9,"type":"request","client":0,"request":{"op":"restore",\#(members)}}"#))
        for command in [new, old] {
            var session = try Self.session()
            let published = try session.apply(command)
            let index = try #require(session.index(of: "list"))
            // Taken back at rest at its offset, numbered on from its stored seq, paused, focused.
            #expect(published.map(\.seq) == [8])
            #expect(session.engine.slots[index].container.state.contentOffset.y == 120.5)
            #expect(session.engine.slots[index].isPaused)
            #expect(session.focus == "list")
        }
    }

    /// A restored `seq` is where numbering goes on: at most 2^53, so that +1 per state can
    /// neither overflow nor leave the integers a JSON number holds.
    @Test func aRestoredSeqIsAtMostTwoToThe53() throws {
        func restore(seq: String) throws -> [Int] {
            let line = try Self.line(#"{"t":9,"type":"restore","containers":[{"container":"list","seq":\#(seq),"x":0.0,"y":0.0,"paused":false,"settings":{}}],"focus":null}"#)
            var session = try Self.session()
            return try session.apply(Command(recorded: line)).map(\.seq)
        }
        #expect(try restore(seq: "9007199254740992") == [9_007_199_254_740_993])
        for seq in ["9007199254740993", "9223372036854775807", "-1"] {
            #expect {
                try restore(seq: seq)
            } throws: { error in
                String(describing: error).contains(#"needs "seq" (an integer from 0 to 2^53)"#)
            }
        }
    }

    @Test func aRecordingWritesEachCommandInItsOwnShape() throws {
        var session = try Self.session()
        session.startRecording(SessionRecorder(header: EventLogHeader(created: "2026-11-27T00:00:00Z", source: "test")), at: 0)
        _ = try session.apply(.input(ScrollEvent(time: 10, device: 1, kind: .wheel(v120: AxisValues(y: 120), degrees: nil))))
        _ = try session.apply(.request(.scrollTo(container: "main", position: ScrollPosition(y: 40), animation: ScrollAnimation.none), client: 2, at: 20))
        _ = try session.apply(.reload(.defaults, client: 0, at: 30))
        _ = try session.apply(.restore(Restoration(containers: [], focus: nil), at: 40))
        let lines = String(decoding: session.takeRecordedLines(), as: UTF8.self).split(separator: "\n").dropFirst()
        #expect(lines.map { $0.prefix(while: { $0 != "," }) } == [#"{"t":0"#, #"{"t":10"#, #"{"t":20"#, #"{"t":30"#, #"{"t":40"#])
        #expect(lines.map { $0.contains(#""type":"reload","client":0,"configuration":{"#) } == [true, false, false, true, false])
        #expect(lines.dropFirst(2).first?.contains(#""type":"request","client":2,"request":{"op":"scrollTo","container":"main","y":40"#) == true)
        #expect(lines.last == #"{"t":40,"type":"restore","containers":[],"focus":null}"#)
    }

    @Test func aRequestThatFailsPublishesAndRecordsNothing() throws {
        var session = try Self.session()
        session.startRecording(SessionRecorder(header: EventLogHeader(created: "2026-11-27T00:00:00Z", source: "test")), at: 0)
        _ = session.takeRecordedLines()
        #expect(throws: ProtocolError.self) { try session.apply(.request(.pause(container: "nowhere"), client: 1, at: 5)) }
        #expect(session.takeRecordedLines().isEmpty)
        #expect(session.engine.slots.map(\.seq) == [0])
    }
}
