import ScrollConfig
import ScrollLog
import ScrollModel
import ScrollProtocol
import ScrollSession
import Testing

/// `beginRefresh` and `endRefresh` through `Session.apply` (docs/design.md §21): published when
/// they change the state, refused for a container without `refresh`, recorded (§17) and
/// replayed to the same states.
@Suite("Refresh requests")
struct RefreshRequestTests {
    static func session() throws -> Session {
        let configuration = try Configuration.parse("""
            [containers.main]
            refresh = { threshold = 80, height = 60 }

            [containers.plain]
            """, file: "f.toml")
        return try Session(configuration: configuration, at: 0)
    }

    @Test func theyChangeTheStateAndAreRecorded() throws {
        var session = try Self.session()
        session.startRecording(SessionRecorder(header: EventLogHeader(created: "2026-11-27T00:00:00Z", source: "test")), at: 0)
        let begun = try session.apply(.request(.beginRefresh(container: "main"), client: 2, at: 20))
        #expect(begun.map(\.state.refreshing) == [true])
        #expect(try session.apply(.request(.beginRefresh(container: "main"), client: 2, at: 25)).isEmpty)
        _ = try session.apply(.request(.scrollTo(container: "main", position: ScrollPosition(y: -60), animation: .none), client: 1, at: 30))
        let ended = try session.apply(.request(.endRefresh(container: "main"), client: 1, at: 40))
        #expect(ended.map(\.state.refreshing) == [false])
        #expect(ended.map(\.state.phase) == [.decelerating])
        let lines = String(decoding: session.takeRecordedLines(), as: UTF8.self).split(separator: "\n")
        #expect(lines.contains(#"{"t":20,"type":"request","client":2,"request":{"op":"beginRefresh","container":"main"}}"#))
        #expect(lines.contains(#"{"t":40,"type":"request","client":1,"request":{"op":"endRefresh","container":"main"}}"#))

        // Replayed from the recording: the same states.
        var replayed = try Session(configuration: .defaults, at: 0)
        var parser = EventLogParser()
        var states: [ScrollState] = []
        for (number, line) in lines.enumerated() {
            guard case .request(let recorded) = try parser.parse(line: Array(line.utf8), lineNumber: number + 1) else { continue }
            states += try replayed.apply(Command(recorded: recorded, atStart: number == 1)).filter { $0.container == 0 }.map(\.state)
        }
        #expect(states.map(\.refreshing) == [true, true, false])
        #expect(states.last == ended.last?.state)
    }

    static func failure(_ body: () throws(ProtocolError) -> Void) -> ProtocolError? {
        do {
            try body()
            return nil
        } catch {
            return error
        }
    }

    @Test func aContainerWithoutRefreshRefusesBoth() throws {
        var session = try Self.session()
        for operation in [Operation.beginRefresh(container: "plain"), .endRefresh(container: "plain")] {
            let error = Self.failure { () throws(ProtocolError) in _ = try session.apply(.request(operation, client: 1, at: 5)) }
            #expect(error?.code == .invalidValue)
            #expect(error?.message.contains(#""plain" has no refresh configured"#) == true)
        }
        #expect(throws: ProtocolError.self) { try session.apply(.request(.endRefresh(container: "nowhere"), client: 1, at: 5)) }
    }
}
